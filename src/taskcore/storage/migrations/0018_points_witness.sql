-- Points need someone else (SPEC section 38): the points of a group task its completer created and held alone wait
-- for another member's or a group admin's approval; since when they wait (NULL: they count).
ALTER TABLE tasks ADD COLUMN points_held_at TIMESTAMP;
