-- An API key acts with its maker's role in its workspace and dies when the
-- maker leaves it; a member who leaves takes their pending invitations with
-- them (issue 32). Removal now deletes both; this drops those that earlier
-- removals and account deletions left behind. Keep in step with the other
-- dialect's 0029_key_makers.sql.
DELETE FROM api_keys WHERE NOT EXISTS (
    SELECT 1 FROM workspace_members m WHERE m.workspace_id = api_keys.workspace_id AND m.user_id = api_keys.user_id);

DELETE FROM workspace_invitations WHERE invited_by IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM workspace_members m WHERE m.workspace_id = workspace_invitations.workspace_id AND m.user_id = workspace_invitations.invited_by);
