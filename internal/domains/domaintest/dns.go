// Package domaintest is a real DNS server for tests of custom domains.
package domaintest

import (
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// DNS is a real DNS server on a loopback UDP port answering TXT, A and
// CNAME records the test sets; every other name is NXDOMAIN.
type DNS struct {
	Addr     string // host:port
	servfail bool
	asked    map[string]int // TXT questions by name
	mu       sync.Mutex
	txt      map[string]string // name → one TXT string
	a        map[string]netip.Addr
	cname    map[string]string // name → target, both with the final dot
}

// StartDNS starts one for the test; it stops with the test.
func StartDNS(t *testing.T) *DNS {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	d := &DNS{Addr: pc.LocalAddr().String(), txt: map[string]string{}, a: map[string]netip.Addr{}, cname: map[string]string{}, asked: map[string]int{}}
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if out := d.answer(buf[:n]); out != nil {
				pc.WriteTo(out, from)
			}
		}
	}()
	return d
}

// Set adds TXT and A records (name → value).
func (d *DNS) Set(txt, a map[string]string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for k, v := range txt {
		d.txt[k+"."] = v
	}
	for k, v := range a {
		d.a[k+"."] = netip.MustParseAddr(v)
	}
}

func (d *DNS) answer(query []byte) []byte {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil
	}
	q, err := p.Question()
	if err != nil {
		return nil
	}
	name := strings.ToLower(q.Name.String())
	d.mu.Lock()
	txt, hasTXT := d.txt[name]
	cname, hasCNAME := d.cname[name]
	a, hasA := d.a[name]
	if hasCNAME {
		a, hasA = d.a[cname]
	}
	if q.Type == dnsmessage.TypeTXT {
		d.asked[name]++
	}
	servfail := d.servfail
	d.mu.Unlock()
	rcode := dnsmessage.RCodeSuccess
	switch {
	case servfail:
		rcode, hasTXT, hasA, hasCNAME = dnsmessage.RCodeServerFailure, false, false, false
	case !hasTXT && !hasA && !hasCNAME:
		rcode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RCode: rcode})
	b.EnableCompression()
	b.StartQuestions()
	b.Question(q)
	b.StartAnswers()
	rh := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 1}
	if hasCNAME && q.Type != dnsmessage.TypeTXT {
		target := dnsmessage.MustNewName(cname)
		b.CNAMEResource(rh, dnsmessage.CNAMEResource{CNAME: target})
		rh.Name = target
	}
	switch {
	case q.Type == dnsmessage.TypeTXT && hasTXT:
		b.TXTResource(rh, dnsmessage.TXTResource{TXT: []string{txt}})
	case q.Type == dnsmessage.TypeA && hasA:
		b.AResource(rh, dnsmessage.AResource{A: a.As4()})
	}
	out, err := b.Finish()
	if err != nil {
		return nil
	}
	return out
}

// SetCNAME makes name an alias of target: A questions for name are
// answered with the CNAME and target's A record, as resolvers do.
func (d *DNS) SetCNAME(name, target string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.cname[name+"."] = target + "."
}

// Delete removes the records of names.
func (d *DNS) Delete(names ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, n := range names {
		delete(d.txt, n+".")
		delete(d.a, n+".")
		delete(d.cname, n+".")
	}
}

// Fail makes every answer SERVFAIL while on, as a resolver in trouble.
func (d *DNS) Fail(on bool) {
	d.mu.Lock()
	d.servfail = on
	d.mu.Unlock()
}

// AskedTXT is how many times the TXT record of name was asked for.
func (d *DNS) AskedTXT(name string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.asked[name+"."]
}
