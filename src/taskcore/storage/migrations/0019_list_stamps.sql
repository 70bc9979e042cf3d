-- The API at the database's cost (SPEC section 42): a stamp per person that every write which can change that
-- person's task list moves, in the writer's own transaction, whichever process writes. A reader that kept a
-- person's list with its stamp serves it again while the stamp is the same (tasksvc_run/web/list_cache.py).
-- What a list shows: the person's assigned tasks in groups they are an active member of (allowed ones, when gating),
-- and their personal tasks; each with its group's name, its assignees (names and parts) and its photo. So the stamp
-- moves for: a task's shown columns (its assignees and personal creator), its assignments (every assignee of the
-- task: each sees the others), its photo, its group's name (the group's members), a membership (the member), a
-- group's gating status (its members) and a person's name (everyone sharing a task with them).
-- A stamp starts at random, so a person forgotten and met again never gets a stamp a reader kept before; the row
-- goes with the person (it holds their id). Bumps are ordered by person (PostgreSQL locks the rows in that order).
CREATE TABLE list_stamps (
    user_id TEXT PRIMARY KEY,
    stamp BIGINT NOT NULL
);

-- Everyone with a task or a membership now: the lists read before this migration start with a stamp.
INSERT INTO list_stamps (user_id, stamp)
SELECT user_id, 1 FROM (SELECT user_id FROM task_assignments UNION SELECT created_by FROM tasks
                        UNION SELECT user_id FROM group_members) AS people;

-- only sqlite
CREATE TRIGGER list_stamps_task_insert AFTER INSERT ON tasks BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT NEW.created_by AS user_id WHERE NEW.group_id IS NULL
        UNION SELECT user_id FROM task_assignments WHERE task_id = NEW.id) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_task_update AFTER UPDATE OF id, group_id, description, due_date, created_by, created_at,
    completed, completed_at, completed_by, completion, recurrence_rule, recurrence_text, rotation_people, points,
    nag_every_hours ON tasks BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT OLD.created_by AS user_id WHERE OLD.group_id IS NULL
        UNION SELECT NEW.created_by WHERE NEW.group_id IS NULL
        UNION SELECT user_id FROM task_assignments WHERE task_id IN (OLD.id, NEW.id)) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_task_delete AFTER DELETE ON tasks BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT OLD.created_by AS user_id WHERE OLD.group_id IS NULL
        UNION SELECT user_id FROM task_assignments WHERE task_id = OLD.id) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_assignment_insert AFTER INSERT ON task_assignments BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT user_id FROM task_assignments WHERE task_id = NEW.task_id
        UNION SELECT created_by FROM tasks WHERE id = NEW.task_id AND group_id IS NULL) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_assignment_update AFTER UPDATE OF task_id, user_id, assigned_at, done_at
    ON task_assignments BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT OLD.user_id AS user_id
        UNION SELECT user_id FROM task_assignments WHERE task_id IN (OLD.task_id, NEW.task_id)
        UNION SELECT created_by FROM tasks WHERE id IN (OLD.task_id, NEW.task_id) AND group_id IS NULL) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_assignment_delete AFTER DELETE ON task_assignments BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT OLD.user_id AS user_id
        UNION SELECT user_id FROM task_assignments WHERE task_id = OLD.task_id
        UNION SELECT created_by FROM tasks WHERE id = OLD.task_id AND group_id IS NULL) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_proof_insert AFTER INSERT ON task_proofs BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT user_id FROM task_assignments WHERE task_id = NEW.task_id
        UNION SELECT created_by FROM tasks WHERE id = NEW.task_id AND group_id IS NULL) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_proof_update AFTER UPDATE OF task_id, required, state, kept_at, file_name
    ON task_proofs BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT user_id FROM task_assignments WHERE task_id IN (OLD.task_id, NEW.task_id)
        UNION SELECT created_by FROM tasks WHERE id IN (OLD.task_id, NEW.task_id) AND group_id IS NULL) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_proof_delete AFTER DELETE ON task_proofs BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT user_id FROM task_assignments WHERE task_id = OLD.task_id
        UNION SELECT created_by FROM tasks WHERE id = OLD.task_id AND group_id IS NULL) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_group_name AFTER UPDATE OF name ON groups BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM group_members WHERE group_id IN (OLD.id, NEW.id)
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_member_insert AFTER INSERT ON group_members BEGIN
    INSERT INTO list_stamps (user_id, stamp) VALUES (NEW.user_id, abs(random() % 1000000000000000))
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_member_update AFTER UPDATE OF group_id, user_id, active ON group_members BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT OLD.user_id AS user_id UNION SELECT NEW.user_id) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_member_delete AFTER DELETE ON group_members BEGIN
    INSERT INTO list_stamps (user_id, stamp) VALUES (OLD.user_id, abs(random() % 1000000000000000))
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_gating_insert AFTER INSERT ON allowed_groups BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM group_members WHERE group_id = NEW.group_id
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_gating_update AFTER UPDATE OF group_id, status ON allowed_groups BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM group_members WHERE group_id IN (OLD.group_id, NEW.group_id)
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_gating_delete AFTER DELETE ON allowed_groups BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM group_members WHERE group_id = OLD.group_id
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_person_name AFTER UPDATE OF display_name ON users
    WHEN OLD.display_name IS NOT NEW.display_name BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT user_id, abs(random() % 1000000000000000) FROM (
        SELECT shared.user_id AS user_id FROM task_assignments AS mine
        JOIN task_assignments AS shared ON shared.task_id = mine.task_id WHERE mine.user_id = NEW.id
        UNION SELECT t.created_by FROM task_assignments AS mine JOIN tasks AS t ON t.id = mine.task_id
        WHERE mine.user_id = NEW.id AND t.group_id IS NULL) WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END;

-- only sqlite
CREATE TRIGGER list_stamps_person_gone AFTER DELETE ON users BEGIN
    DELETE FROM list_stamps WHERE user_id = OLD.id;
END;

-- PostgreSQL: one function moves the stamps of the people a query names, and one trigger function per table finds
-- them (TG_OP says which rows exist: OLD on UPDATE and DELETE, NEW on INSERT and UPDATE).
-- only postgresql
CREATE FUNCTION list_stamps_bump(people TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO list_stamps (user_id, stamp)
    SELECT person, floor(random() * 1e15)::bigint
    FROM (SELECT DISTINCT person FROM unnest(people) AS person WHERE person IS NOT NULL) AS named ORDER BY person
    ON CONFLICT (user_id) DO UPDATE SET stamp = list_stamps.stamp + 1;
END $$;

-- only postgresql
CREATE FUNCTION list_stamps_of_tasks(ids BIGINT[]) RETURNS TEXT[] LANGUAGE sql STABLE AS $$
    SELECT coalesce(array_agg(user_id), '{}') FROM (
        SELECT user_id FROM task_assignments WHERE task_id = ANY (ids)
        UNION SELECT created_by FROM tasks WHERE id = ANY (ids) AND group_id IS NULL) AS people
$$;

-- only postgresql
CREATE FUNCTION list_stamps_of_groups(ids TEXT[]) RETURNS TEXT[] LANGUAGE sql STABLE AS $$
    SELECT coalesce(array_agg(user_id), '{}') FROM group_members WHERE group_id = ANY (ids)
$$;

-- only postgresql
CREATE FUNCTION list_stamps_task() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM list_stamps_bump(list_stamps_of_tasks(ARRAY[OLD.id])
                                 || CASE WHEN OLD.group_id IS NULL THEN ARRAY[OLD.created_by] ELSE '{}' END);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM list_stamps_bump(list_stamps_of_tasks(ARRAY[NEW.id])
                                 || CASE WHEN NEW.group_id IS NULL THEN ARRAY[NEW.created_by] ELSE '{}' END);
    END IF;
    RETURN NULL;
END $$;

-- only postgresql
CREATE FUNCTION list_stamps_assignment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM list_stamps_bump(list_stamps_of_tasks(ARRAY[OLD.task_id]) || ARRAY[OLD.user_id]);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM list_stamps_bump(list_stamps_of_tasks(ARRAY[NEW.task_id]));
    END IF;
    RETURN NULL;
END $$;

-- only postgresql
CREATE FUNCTION list_stamps_proof() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE FUNCTION list_stamps_group_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM list_stamps_bump(list_stamps_of_groups(ARRAY[OLD.id, NEW.id]));
    RETURN NULL;
END $$;

-- only postgresql
CREATE FUNCTION list_stamps_gating() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM list_stamps_bump(list_stamps_of_groups(ARRAY[OLD.group_id]));
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM list_stamps_bump(list_stamps_of_groups(ARRAY[NEW.group_id]));
    END IF;
    RETURN NULL;
END $$;

-- only postgresql
CREATE FUNCTION list_stamps_member() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM list_stamps_bump(ARRAY[OLD.user_id]);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM list_stamps_bump(ARRAY[NEW.user_id]);
    END IF;
    RETURN NULL;
END $$;

-- only postgresql
CREATE FUNCTION list_stamps_person() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM list_stamps WHERE user_id = OLD.id;
    ELSIF OLD.display_name IS DISTINCT FROM NEW.display_name THEN
        PERFORM list_stamps_bump(list_stamps_of_tasks(
            ARRAY(SELECT task_id FROM task_assignments WHERE user_id = NEW.id)));
    END IF;
    RETURN NULL;
END $$;

-- only postgresql
CREATE TRIGGER list_stamps_task AFTER INSERT OR DELETE OR UPDATE OF id, group_id, description, due_date, created_by,
    created_at, completed, completed_at, completed_by, completion, recurrence_rule, recurrence_text, rotation_people,
    points, nag_every_hours ON tasks FOR EACH ROW EXECUTE FUNCTION list_stamps_task();

-- only postgresql
CREATE TRIGGER list_stamps_assignment AFTER INSERT OR DELETE OR UPDATE OF task_id, user_id, assigned_at, done_at
    ON task_assignments FOR EACH ROW EXECUTE FUNCTION list_stamps_assignment();

-- only postgresql
CREATE TRIGGER list_stamps_proof AFTER INSERT OR DELETE OR UPDATE OF task_id, required, state, kept_at, file_name
    ON task_proofs FOR EACH ROW EXECUTE FUNCTION list_stamps_proof();

-- only postgresql
CREATE TRIGGER list_stamps_group_name AFTER UPDATE OF name ON groups
    FOR EACH ROW EXECUTE FUNCTION list_stamps_group_name();

-- only postgresql
CREATE TRIGGER list_stamps_gating AFTER INSERT OR DELETE OR UPDATE OF group_id, status ON allowed_groups
    FOR EACH ROW EXECUTE FUNCTION list_stamps_gating();

-- only postgresql
CREATE TRIGGER list_stamps_member AFTER INSERT OR DELETE OR UPDATE OF group_id, user_id, active ON group_members
    FOR EACH ROW EXECUTE FUNCTION list_stamps_member();

-- only postgresql
CREATE TRIGGER list_stamps_person AFTER DELETE OR UPDATE OF display_name ON users
    FOR EACH ROW EXECUTE FUNCTION list_stamps_person();
