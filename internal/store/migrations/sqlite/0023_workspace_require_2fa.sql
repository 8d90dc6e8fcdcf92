-- Workspaces may require two-factor authentication of their members
-- (issue 27 item 5). Keep in step with the other dialect's
-- 0023_workspace_require_2fa.sql.
ALTER TABLE workspaces ADD COLUMN require_2fa INTEGER NOT NULL DEFAULT 0;
