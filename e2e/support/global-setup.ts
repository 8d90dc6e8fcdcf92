import { sinkPorts, startSmtpSink } from './smtp-sink'

// Runs once, in the runner process, after the app has started: the app
// connects to the SMTP sink only when it sends, so the order is harmless.
// The returned function stops the sink when the run ends.
export default async function globalSetup() {
  return startSmtpSink(sinkPorts(process.env.SQUARELY_E2E_ADDR ?? '127.0.0.1:18080'))
}
