-- Workspace domain capture (issue 33 item 2): anyone who signs in with a
-- verified address at auto_join_domain joins the team workspace as
-- auto_join_role. One workspace per domain. Keep in step with the other
-- dialect's 0037_auto_join.sql.
ALTER TABLE workspaces ADD COLUMN auto_join_domain TEXT;
ALTER TABLE workspaces ADD COLUMN auto_join_role TEXT;
CREATE UNIQUE INDEX workspaces_auto_join_domain_key ON workspaces (auto_join_domain);
