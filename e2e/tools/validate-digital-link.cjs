// Validates GS1 Digital Link URIs with GS1's digital-link.js toolkit: one
// URI a line on stdin; prints each invalid one with its validation trace
// and exits 1 if any is invalid, 3 if digital-link.js is not installed
// (cd e2e && npm ci). Run by internal/server's GS1 tests.
let DigitalLink;
try {
  ({ DigitalLink } = require('digital-link.js'));
} catch {
  console.error('digital-link.js is not installed: run npm ci in e2e/');
  process.exit(3);
}
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  let bad = 0;
  for (const uri of input.split('\n').map((s) => s.trim()).filter(Boolean)) {
    let ok = false;
    let trace;
    try {
      const dl = DigitalLink(uri);
      ok = dl.isValid();
      trace = dl.getValidationTrace();
    } catch (e) {
      trace = String(e);
    }
    if (!ok) {
      bad++;
      console.log(`invalid: ${uri}\n${JSON.stringify(trace)}`);
    } else {
      console.log(`valid: ${uri}`);
    }
  }
  process.exit(bad ? 1 : 0);
});
