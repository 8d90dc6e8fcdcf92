-- SAML single sign-on per workspace (issue 33 item 3). Keep in step with
-- the other dialect's 0042_saml_sso.sql.
--
-- workspace_sso: the IdP a team workspace signs its members in through,
-- and the service provider's own key pair (its metadata's certificate).
CREATE TABLE workspace_sso (
    workspace_id        bigint PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    idp_metadata_xml    text NOT NULL,
    idp_metadata_url    text NOT NULL DEFAULT '',
    role_mapping        text NOT NULL DEFAULT '{}',
    default_role        text NOT NULL CHECK (default_role IN ('admin', 'editor', 'viewer')),
    allow_idp_initiated boolean NOT NULL DEFAULT false,
    break_glass_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
    sp_key_pem          text NOT NULL,
    sp_cert_pem         text NOT NULL,
    updated_at          timestamptz NOT NULL
);

-- enforce_sso sits with require_2fa: every workspace route reads it.
ALTER TABLE workspaces ADD COLUMN enforce_sso boolean NOT NULL DEFAULT false;

-- The AuthnRequests this SP sent, each answered at most once (InResponseTo).
CREATE TABLE saml_requests (
    id           text PRIMARY KEY,
    workspace_id bigint NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    expires_at   timestamptz NOT NULL
);
CREATE INDEX saml_requests_expires_at_idx ON saml_requests (expires_at);

-- The assertions accepted, kept until they expire: a replay is refused.
CREATE TABLE saml_assertions (
    id         text PRIMARY KEY,
    expires_at timestamptz NOT NULL
);
CREATE INDEX saml_assertions_expires_at_idx ON saml_assertions (expires_at);

-- The workspace whose IdP this session signed in through (enforce_sso).
ALTER TABLE sessions ADD COLUMN sso_workspace_id bigint REFERENCES workspaces (id) ON DELETE SET NULL;

-- A sign-in through the IdP that still asks for the account's second
-- factor keeps the workspace until the session starts.
ALTER TABLE pending_logins ADD COLUMN sso_workspace_id bigint REFERENCES workspaces (id) ON DELETE CASCADE;
