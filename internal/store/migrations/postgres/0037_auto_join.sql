-- Workspace domain capture (issue 33 item 2): anyone who signs in with a
-- verified address at auto_join_domain joins the team workspace as
-- auto_join_role. One workspace per domain. Keep in step with the other
-- dialect's 0037_auto_join.sql.
ALTER TABLE workspaces ADD COLUMN auto_join_domain text;
ALTER TABLE workspaces ADD COLUMN auto_join_role text;
CREATE UNIQUE INDEX workspaces_auto_join_domain_key ON workspaces (auto_join_domain);
