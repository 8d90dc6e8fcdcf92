import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app'
import { routerReady } from './app/router'
import './index.css'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

// Public pages arrive prerendered (scripts/prerender.mjs); the app replaces
// that HTML once the page's own code is in, so the swap shows no spinner.
await routerReady()
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
