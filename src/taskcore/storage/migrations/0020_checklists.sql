-- Checklists (SPEC section 41): up to 20 items inside a task, numbered from 1 in the order they were written (n;
-- removing one numbers the later ones down). done_at: when it was ticked (NULL: not yet). An item goes with its task.
-- Items are shown in task lists, so they move the list stamps of migration 0019 the way a task's photo does: every
-- insert, delete and update of a shown column moves the stamps of the task's people (its assignees, and its creator
-- for a personal task), in the writer's own transaction, on both databases.
CREATE TABLE task_items (
    task_id BIGINT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    text TEXT NOT NULL,
    done_at TIMESTAMP,
    PRIMARY KEY (task_id, n)
);

-- only sqlite
CREATE TRIGGER list_stamps_item_insert AFTER INSERT ON task_items BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT user_id FROM task_assignments WHERE task_id = NEW.task_id
        UNION SELECT created_by FROM tasks WHERE id = NEW.task_id AND group_id IS NULL) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_item_update AFTER UPDATE OF task_id, n, text, done_at ON task_items BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT user_id FROM task_assignments WHERE task_id IN (OLD.task_id, NEW.task_id)
        UNION SELECT created_by FROM tasks WHERE id IN (OLD.task_id, NEW.task_id) AND group_id IS NULL) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_item_delete AFTER DELETE ON task_items BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT user_id FROM task_assignments WHERE task_id = OLD.task_id
        UNION SELECT created_by FROM tasks WHERE id = OLD.task_id AND group_id IS NULL) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- PostgreSQL: the people of the item's task (before and after), through 0019's functions.
-- only postgresql
CREATE FUNCTION list_stamps_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM list_stamps_bump(list_stamps_of_tasks(ARRAY[OLD.task_id]));
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM list_stamps_bump(list_stamps_of_tasks(ARRAY[NEW.task_id]));
    END IF;
    RETURN NULL;
END $$;

-- only postgresql
CREATE TRIGGER list_stamps_item AFTER INSERT OR DELETE OR UPDATE OF task_id, n, text, done_at
    ON task_items FOR EACH ROW EXECUTE FUNCTION list_stamps_item();
