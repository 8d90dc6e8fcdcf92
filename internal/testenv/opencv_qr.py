"""Read QR codes with OpenCV for the tests (testenv.ReadWithOpenCV).

Usage: python3 opencv_qr.py FILE...  (or the script on stdin: python3 - FILE...)
Prints one line per file: the file name, the hex of the decoded text's
UTF-8 bytes (empty when nothing decoded it), and 1 or 0 for whether
cv2.QRCodeDetector located a code, tab-separated.

Decoders, in turn: cv2.QRCodeDetector and, where this OpenCV has it,
cv2.QRCodeDetectorAruco; then cv2.wechat_qrcode_WeChatQRCode (opencv
contrib, without its CNN models). Debian's python3-opencv builds
QRCodeDetector without the quirc library, so there it locates codes but
decodes none ("Library QUIRC is not linked"); WeChatQRCode decodes.
"""
import os
import sys

import cv2

detector = cv2.QRCodeDetector()
decoders = [detector]
if hasattr(cv2, "QRCodeDetectorAruco"):
    decoders.append(cv2.QRCodeDetectorAruco())


def wechat(img):
    texts, _ = wechat_reader.detectAndDecode(img)
    return texts[0] if texts else ""


if hasattr(cv2, "wechat_qrcode_WeChatQRCode"):
    wechat_reader = cv2.wechat_qrcode_WeChatQRCode()
else:
    wechat = None

# Without quirc every decode prints a notice on stdout, where the answers
# go: it is silenced (the docstring says why nothing decodes there).
devnull = os.open(os.devnull, os.O_WRONLY)

for name in sys.argv[1:]:
    img = cv2.imread(name, cv2.IMREAD_GRAYSCALE)
    text, found = "", False
    if img is not None:
        found = bool(detector.detect(img)[0])
        saved = os.dup(1)
        os.dup2(devnull, 1)
        try:
            for d in decoders:
                try:
                    text = d.detectAndDecode(img)[0]
                except cv2.error:
                    text = ""
                if text:
                    break
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        if not text and wechat:
            text = wechat(img)
    print(name, text.encode("utf-8", "surrogateescape").hex(), int(found), sep="\t", flush=True)
