-- A schedule's update or delete rewrites its earlier change-log rows in the same transaction
-- (shared/live/change-log.ts, FORGET): what an administrator removed stops being readable from a
-- resume. This index finds those rows without reading the whole retention window.
CREATE INDEX live_changes_by_schedule ON live_changes (target_id, seq) WHERE kind IN ('created', 'updated', 'deleted');
