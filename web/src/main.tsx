import { startApp } from './app/start'
import './index.css'

// The entry of the pages that are not prerendered (sign-in, dashboard and
// the other signed-in pages); prerendered public pages start with public.ts.
// Not awaited: a top-level await anywhere turns off the bundler's merging of
// small shared chunks, which left the landing page loading dozens of them.
void startApp({ hydrate: false })
