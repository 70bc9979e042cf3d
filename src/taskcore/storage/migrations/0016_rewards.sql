-- Rewards (SPEC section 34): what a group's admins offer for points, and what its members ask for.
-- A deleted reward keeps its row (deleted_at) so the requests made for it keep their reward's name.
CREATE TABLE rewards (
    id {{id}},
    group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    points INTEGER NOT NULL CHECK (points BETWEEN 1 AND 10000),
    created_by TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL,
    deleted_at TIMESTAMP
);
CREATE INDEX ix_rewards_group ON rewards (group_id, deleted_at);

-- A request keeps the price the reward had when it was asked for. state: 'requested', then 'approved' or 'refused'.
-- A person's balance in a group is the points of their completions there less their approved requests' points.
CREATE TABLE reward_requests (
    id {{id}},
    reward_id BIGINT NOT NULL REFERENCES rewards (id) ON DELETE CASCADE,
    group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
    requester TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    points INTEGER NOT NULL CHECK (points >= 1),
    state TEXT NOT NULL CHECK (state IN ('requested', 'approved', 'refused')),
    requested_at TIMESTAMP NOT NULL,
    decided_by TEXT REFERENCES users (id) ON DELETE SET NULL,
    decided_at TIMESTAMP,
    reason TEXT
);
CREATE INDEX ix_reward_requests_group_state ON reward_requests (group_id, state);
CREATE INDEX ix_reward_requests_requester ON reward_requests (requester, group_id);
