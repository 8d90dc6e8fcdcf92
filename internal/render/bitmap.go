package render

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"io"
	"sync"
)

// A plain code is written by hand as a 1-bit paletted PNG: image/png reads
// images of less than 8 bits per pixel one pixel at a time through an
// interface, which made it five times slower than rsc.io/qr's writer. Here
// each module row is packed once and repeated; zlib then finds the repeats.

// bitmapLevel was chosen by measurement (BENCHMARKS.md): the default level
// compresses the repeated rows almost as well as the best at a fraction of
// its time.
const bitmapLevel = zlib.DefaultCompression

// zbuf holds a zlib writer and its output buffer for reuse: a compressor
// allocates about a megabyte.
type zbuf struct {
	buf bytes.Buffer
	zw  *zlib.Writer
}

var zpool = sync.Pool{New: func() any {
	z := &zbuf{}
	z.zw, _ = zlib.NewWriterLevel(&z.buf, bitmapLevel) // a valid level: no error
	return z
}}

// getZ returns a reset compressor writing to an empty buffer; put it back
// with zpool.Put once its output has been copied out.
func getZ() *zbuf {
	z := zpool.Get().(*zbuf)
	z.buf.Reset()
	z.zw.Reset(&z.buf)
	return z
}

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

	z := getZ()
	defer zpool.Put(z)
	m := sc.matrix
	write := func(r []byte, times int) {
		for range times {
			_, _ = z.zw.Write(r) // into memory: cannot fail
		}
	}
	write(light, edge[QuietZone])
	var buf [64]int
	for my := range m.Size {
		clear(row[1:])
		runs := m.AppendDarkRuns(buf[:0], my)
		for i := 0; i < len(runs); i += 2 {
			for x := edge[runs[i]+QuietZone]; x < edge[runs[i+1]+QuietZone]; x++ {
				row[1+x>>3] |= 0x80 >> (x & 7)
			}
		}
		write(row, edge[my+QuietZone+1]-edge[my+QuietZone])
	}
	write(light, px-edge[n-QuietZone])
	if err := z.zw.Close(); err != nil {
		return err
	}

	bw := bufio.NewWriterSize(w, 512+z.buf.Len())
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
	writeChunk(bw, "IDAT", z.buf.Bytes())
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
