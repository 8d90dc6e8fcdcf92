-- A trial is used once by an account too (ActivateTrial): an owner of a
-- workspace whose trial was activated before this counts as having used
-- theirs, so a new workspace brings no second one. Keep in step with the
-- other dialect's 0060_trial_per_account.sql.
UPDATE users SET trial_activated = TRUE
WHERE NOT trial_activated AND id IN (
    SELECT m.user_id FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
    WHERE m.role = 'owner' AND w.trial_activated
);
