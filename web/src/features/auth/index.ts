// What other features may use of sign-in (eslint.config.js keeps the rest private).
export { useSignInProviders } from './api/second-factor'
