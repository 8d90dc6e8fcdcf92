import { dnsPort, startDNSServer } from './dns-server'
import { sinkPorts, startSmtpSink } from './smtp-sink'

// Runs once, in the runner process, after the app has started: the app
// connects to the SMTP sink only when it sends, and to the DNS server only
// when it verifies a domain, so the order is harmless. The returned
// function stops both when the run ends.
export default async function globalSetup() {
  const addr = process.env.SQUARELY_E2E_ADDR ?? '127.0.0.1:18080'
  const stopSink = await startSmtpSink(sinkPorts(addr))
  const stopDNS = await startDNSServer(dnsPort(addr))
  return async () => {
    await stopDNS()
    await stopSink()
  }
}
