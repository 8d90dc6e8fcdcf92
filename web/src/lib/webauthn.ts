/**
 * Passkeys in the browser: the server's WebAuthn options (JSON, binary
 * fields in base64url) to navigator.credentials and the credential back to
 * JSON for the server's finish calls.
 */

type Json = Record<string, unknown>

function toBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/')
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
}

function fromBytes(buffer: ArrayBuffer | null): string | null {
  if (!buffer) return null
  let text = ''
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte)
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function descriptors(list: unknown): PublicKeyCredentialDescriptor[] | undefined {
  if (!Array.isArray(list)) return undefined
  return (list as Json[]).map((d) => ({ ...d, type: 'public-key', id: toBytes(String(d.id)) }))
}

/** A credential as the server's finish calls read it: its response's own fields beside clientDataJSON. */
function credentialJSON(credential: PublicKeyCredential, response: Json): Json {
  return {
    id: credential.id,
    rawId: fromBytes(credential.rawId),
    type: credential.type,
    response: { clientDataJSON: fromBytes(credential.response.clientDataJSON), ...response },
  }
}

/**
 * A passkey failure in our words: the browser's own (a DOMException such
 * as "The operation either timed out or was not allowed") tells a person
 * nothing they can act on. undefined for anything that is not the browser's.
 */
export function passkeyProblem(error: unknown): string | undefined {
  if (!(error instanceof DOMException)) return undefined
  switch (error.name) {
    case 'NotAllowedError':
      return 'The passkey request was cancelled or timed out. Try again when your device asks.'
    case 'InvalidStateError':
      return 'This device already holds a passkey for your account.'
    case 'AbortError':
      return 'The passkey request was stopped. Try again.'
    case 'SecurityError':
      return 'Passkeys need this site on HTTPS under its own name.'
    case 'NotSupportedError':
      return 'This device cannot make a passkey this site accepts.'
    default:
      return 'Your device could not use a passkey. Try again, or sign in another way.'
  }
}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && 'PublicKeyCredential' in window && !!navigator.credentials
}

/** navigator.credentials.create with options from /api/webauthn/register/begin; the JSON for …/finish. */
export async function createPasskey(options: { publicKey: Json }): Promise<Json> {
  const o = options.publicKey
  const user = o.user as Json
  const publicKey = {
    ...o,
    challenge: toBytes(String(o.challenge)),
    user: { ...user, id: toBytes(String(user.id)) },
    excludeCredentials: descriptors(o.excludeCredentials),
  } as unknown as PublicKeyCredentialCreationOptions
  const credential = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential | null
  if (!credential) throw new Error('No passkey was created')
  const response = credential.response as AuthenticatorAttestationResponse
  return credentialJSON(credential, {
    attestationObject: fromBytes(response.attestationObject),
    transports: response.getTransports?.() ?? [],
  })
}

/** navigator.credentials.get with options from /api/webauthn/login/begin; the JSON for …/finish. */
export async function getPasskey(options: { publicKey: Json }): Promise<Json> {
  const o = options.publicKey
  const publicKey = {
    ...o,
    challenge: toBytes(String(o.challenge)),
    allowCredentials: descriptors(o.allowCredentials),
  } as unknown as PublicKeyCredentialRequestOptions
  const credential = (await navigator.credentials.get({ publicKey })) as PublicKeyCredential | null
  if (!credential) throw new Error('No passkey was chosen')
  const response = credential.response as AuthenticatorAssertionResponse
  return credentialJSON(credential, {
    authenticatorData: fromBytes(response.authenticatorData),
    signature: fromBytes(response.signature),
    userHandle: fromBytes(response.userHandle),
  })
}
