export { FreeTrialBanner } from './components/free-trial-banner'
