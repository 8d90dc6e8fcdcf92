package render

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"io"
)

// A plain code is written by hand as a 1-bit paletted PNG: image/png reads
// images of less than 8 bits per pixel one pixel at a time through an
// interface, which made it five times slower than rsc.io/qr's writer. Here
// each module row is packed once and handed to a rowDeflater (deflate.go)
// with its number of pixel rows: it writes the repeats as copies without
// searching for them, which zlib spent most of the time doing.

func (sc *Scene) writeBitmapPNG(w io.Writer, px int) error {
	n := sc.n
	k, off, _ := snap(float64(px)/float64(n), 0, 0, n)
	edge := make([]int, n+1)
	for i := range edge {
		edge[i] = int(off) + i*int(k)
	}
	stride := 1 + (px+7)/8 // filter byte (0: none) and the packed pixels
	rows := make([]byte, 2*stride)
	light, row := rows[:stride], rows[stride:]

	d := getDeflater(stride, n+2)
	defer deflaters.Put(d)
	m := sc.matrix
	d.rows(light, edge[QuietZone])
	var buf [64]int
	for my := range m.Size {
		clear(row[1:])
		runs := m.AppendDarkRuns(buf[:0], my)
		for i := 0; i < len(runs); i += 2 {
			for x := edge[runs[i]+QuietZone]; x < edge[runs[i+1]+QuietZone]; x++ {
				row[1+x>>3] |= 0x80 >> (x & 7)
			}
		}
		d.rows(row, edge[my+QuietZone+1]-edge[my+QuietZone])
	}
	d.rows(light, px-edge[n-QuietZone])
	idat := d.finish()

	bw := bufio.NewWriterSize(w, 512+len(idat))
	bw.WriteString("\x89PNG\r\n\x1a\n")
	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(px))
	binary.BigEndian.PutUint32(hdr[4:], uint32(px))
	hdr[8], hdr[9] = 1, 3 // bit depth 1, palette colour
	writeChunk(bw, "IHDR", hdr[:])
	bg, fg := sc.bg, sc.fg
	writeChunk(bw, "PLTE", []byte{bg.R, bg.G, bg.B, fg.R, fg.G, fg.B})
	if sc.transparent {
		writeChunk(bw, "tRNS", []byte{0}) // palette entry 0, the background, fully transparent
	}
	writeChunk(bw, "IDAT", idat)
	writeChunk(bw, "IEND", nil)
	return bw.Flush()
}

// writeChunk writes a PNG chunk; errors surface at Flush.
func writeChunk(w *bufio.Writer, typ string, data []byte) {
	var b [8]byte
	binary.BigEndian.PutUint32(b[:4], uint32(len(data)))
	copy(b[4:], typ)
	w.Write(b[:])
	w.Write(data)
	crc := crc32.NewIEEE()
	crc.Write(b[4:])
	crc.Write(data)
	binary.BigEndian.PutUint32(b[:4], crc.Sum32())
	w.Write(b[:4])
}
