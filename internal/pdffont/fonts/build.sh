#!/bin/sh
# Rebuilds the committed Noto subsets in this folder from Debian 12's
# fonts-noto-core (20201225-1) and fonts-noto-cjk (1:20220127) with
# python3-fonttools (4.38). Run from this folder: sh build.sh
set -eu
PY=/usr/bin/python3
CORE=/usr/share/fonts/truetype/noto
CJK=/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc
# Space, ASCII punctuation and digits ride along so that a run of one
# script shapes its spaces and numbers in the same font.
COMMON=U+0020-0040,U+00A0,U+200C-200F,U+25CC
sub() { # font, output, unicode ranges
	$PY -m fontTools.subset "$1" --output-file="$2" --unicodes="$COMMON,$3" \
		--layout-features='*' --no-hinting --name-IDs='*' --name-languages='*' --drop-tables+=DSIG
}
sub $CORE/NotoSansArabic-Bold.ttf NotoSansArabic-Bold.ttf U+0600-06FF,U+0750-077F,U+08A0-08FF,U+FB50-FDFF,U+FE70-FEFF
sub $CORE/NotoSansHebrew-Bold.ttf NotoSansHebrew-Bold.ttf U+0590-05FF,U+FB1D-FB4F
sub $CORE/NotoSansDevanagari-Bold.ttf NotoSansDevanagari-Bold.ttf U+0900-097F,U+A8E0-A8FF,U+1CD0-1CFF
sub $CORE/NotoSansThai-Bold.ttf NotoSansThai-Bold.ttf U+0E00-0E7F

# CJK: the Simplified Chinese face (number 2 in the collection) cut to
# GB 2312 level 1 (3,755 common hanzi), JIS X 0208 level 1 (2,965 common
# kanji), KS X 1001's 2,350 hangul syllables, kana, compatibility jamo,
# CJK punctuation and full-width forms, then its CFF outlines converted to
# TrueType quadratics (the PDF embeds it as a CIDFontType2). No layout
# features: they pull in thousands of vertical and regional variants, and
# horizontal CJK needs none.
$PY - <<'PYEOF'
def rows(codec, first, last):
    out = set()
    for hi in range(first, last + 1):
        for lo in range(0xA1, 0xFF):
            try:
                out.update(bytes([hi, lo]).decode(codec))
            except UnicodeDecodeError:
                pass
    return out
chars = rows('gb2312', 0xB0, 0xD7) | rows('euc_jp', 0xB0, 0xCF) | rows('euc_kr', 0xB0, 0xC8)
ranges = [(0x3000, 0x30FF), (0x3130, 0x318F), (0xFF00, 0xFFEF)]
cps = {ord(c) for c in chars} | {c for a, b in ranges for c in range(a, b + 1)}
with open('cjk-unicodes.txt', 'w') as f:
    f.write('\n'.join('U+%04X' % c for c in sorted(cps)) + '\n')
PYEOF
$PY -m fontTools.subset $CJK --font-number=2 --output-file=cjk-cff.otf --unicodes="$COMMON" \
	--unicodes-file=cjk-unicodes.txt --layout-features='' --no-hinting --name-IDs='*' \
	--drop-tables+=DSIG,vhea,vmtx,VORG
$PY - <<'PYEOF'
from fontTools.ttLib import TTFont, newTable
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
f = TTFont('cjk-cff.otf', recalcTimestamp=False)  # reproducible: keep head.modified
order = f.getGlyphOrder()
gs = f.getGlyphSet()
glyf = newTable('glyf')
glyf.glyphOrder = order
glyf.glyphs = {}
for name in order:
    pen = TTGlyphPen(gs)
    # Within one font unit of the cubic; TrueType runs clockwise.
    gs[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
    glyf.glyphs[name] = pen.glyph()
del f['CFF ']
f['glyf'] = glyf
f['loca'] = newTable('loca')
maxp = f['maxp']
maxp.tableVersion = 0x00010000
for k in ('maxZones', 'maxTwilightPoints', 'maxStorage', 'maxFunctionDefs', 'maxInstructionDefs',
          'maxStackElements', 'maxSizeOfInstructions', 'maxComponentElements', 'maxComponentDepth',
          'maxPoints', 'maxContours', 'maxCompositePoints', 'maxCompositeContours'):
    setattr(maxp, k, 1 if k == 'maxZones' else 0)
f['head'].glyphDataFormat = 0
f['post'].formatType = 3.0
f.sfntVersion = '\0\1\0\0'
f.save('NotoSansCJKsc-Bold-subset.ttf')
PYEOF
rm cjk-cff.otf cjk-unicodes.txt
