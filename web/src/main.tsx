import { startApp } from './app/start'
import './index.css'

// The entry of the pages that are not prerendered (sign-in, dashboard and
// the other signed-in pages); prerendered public pages start with public.ts.
await startApp({ hydrate: false })
