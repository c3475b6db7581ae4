#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds the tokenizer corpora from Debian-packaged text, reproducibly.

    build_corpus.py OUTDIR

writes OUTDIR/corpus-en.txt (~9 MB English prose: KJV Bible, Jargon File,
fortunes, Debian Reference and FAQ, licence texts), OUTDIR/corpus-mixed.txt
(CJK, Japanese, Cyrillic, accents, gettext catalogues, emoji test data, C
headers, Python code, numbers, JSON) and OUTDIR/lines.txt (a few thousand
diverse lines for the exactness tests: samples of both corpora plus edge
cases: contractions, whitespace runs, NBSP/U+2028/U+3000, BOM, zero-width
space, combining marks, very long words, long CJK runs, emoji sequences,
special-token text, empty lines). Packages: bible-kjv, jargon-text,
fortunes-min, debian-reference-en/-zh-cn/-ja, debian-faq, fortunes-zh/-ru/
-de/-es, unicode-data, gettext (msgunfmt). Missing sources are skipped with
a note on stderr; the output is valid UTF-8 and identical on every run with
the same packages.
"""
import glob
import gzip
import html
import os
import re
import subprocess
import sys

EN_TARGET = 9_400_000
MIXED_TARGET = 1_900_000


def note(msg):
    print("build_corpus: " + msg, file=sys.stderr)


def read_text(path):
    try:
        if path.endswith(".gz"):
            with gzip.open(path, "rb") as f:
                data = f.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        note("skipped %s (%s)" % (path, e))
        return ""
    return data.decode("utf-8", errors="replace").replace("\ufffd", "")


def run(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, check=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as e:
        note("skipped %s (%s)" % (" ".join(cmd), e))
        return ""
    return out.stdout.decode("utf-8", errors="replace").replace("\ufffd", "")


def strip_html(s):
    s = re.sub(r"(?is)<(script|style).*?</\1>", " ", s)
    s = re.sub(r"(?s)<[^>]+>", "", s)
    s = html.unescape(s)
    return "\n".join(l.rstrip() for l in s.splitlines())


def strip_overstrike(s):
    s = re.sub(r".\x08", "", s)
    return re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", s)


def clean(s):
    s = s.replace("\r\n", "\n")
    # drop control characters other than tab and newline
    return re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", "", s)


def english():
    parts = []
    bible = run(["bible", "-f", "Gen1:1-Rev22:21"])
    parts.append(re.sub(r"(?m)^[A-Za-z0-9]+[0-9]+:[0-9]+ ", "", bible))
    parts.append(strip_html(read_text("/usr/share/doc/jargon-text/jargon.html")))
    for f in sorted(glob.glob("/usr/share/games/fortunes/*")):
        if "." not in os.path.basename(f) and os.path.isfile(f):
            parts.append(strip_overstrike(read_text(f)))
    parts.append(read_text("/usr/share/debian-reference/debian-reference.en.txt.gz"))
    parts.append(read_text("/usr/share/doc/debian/FAQ/debian-faq.en.txt.gz"))
    for f in sorted(glob.glob("/usr/share/common-licenses/*")):
        if os.path.isfile(f) and not os.path.islink(f):
            parts.append(read_text(f))
    text = clean("\n".join(p for p in parts if p))
    if len(text.encode()) < EN_TARGET:
        # top up with package documentation, deterministically ordered
        for f in sorted(glob.glob("/usr/share/doc/*/README*")):
            if not os.path.isfile(f):
                continue
            text += "\n" + clean(read_text(f))
            if len(text.encode()) >= EN_TARGET:
                break
    return cut(text, EN_TARGET)


def cut(text, limit):
    b = text.encode()
    if len(b) <= limit:
        return text if text.endswith("\n") else text + "\n"
    b = b[:limit]
    b = b[: b.rfind(b"\n") + 1]
    return b.decode()


def mo_text(locale):
    out = []
    for mo in sorted(glob.glob("/usr/share/locale/%s/LC_MESSAGES/*.mo" % locale))[:6]:
        po = run(["msgunfmt", mo])
        for m in re.finditer(r'(?m)^msgstr(?:\[\d\])? "(.*)"$', po):
            s = m.group(1).encode().decode("unicode_escape", errors="ignore")
            try:
                s = s.encode("latin-1").decode("utf-8")
            except (UnicodeDecodeError, UnicodeEncodeError):
                continue
            if s.strip():
                out.append(s)
    return "\n".join(out)


def numbers():
    lines = []
    x = 12345
    for i in range(400):
        x = (x * 1103515245 + 12345) % 2**31
        lines.append("%d %0.6f %x %d,%03d %s-%02d-%02d %d%%" % (
            x, x / 7919.0, x, x // 1000, x % 1000, 1900 + x % 200, 1 + x % 12,
            1 + x % 28, x % 100))
    lines.append(" ".join(str(i) for i in range(1000)))
    return "\n".join(lines)


def mixed():
    parts = []
    for lang in ("zh-cn", "ja"):
        parts.append(cut(read_text(
            "/usr/share/debian-reference/debian-reference.%s.txt.gz" % lang), 250_000))
    for d, lim in (("zh", 200_000), ("ru", 150_000), ("de", 120_000), ("es", 100_000)):
        acc = ""
        for f in sorted(glob.glob("/usr/share/games/fortunes/%s/*" % d)):
            if not f.endswith(".dat") and os.path.isfile(f):
                acc += strip_overstrike(read_text(f))
        parts.append(cut(acc, lim))
    for loc in ("ko", "th", "ar", "he", "hi", "ja", "zh_CN", "ru", "el", "vi",
                "uk", "fr", "tr", "pl"):
        parts.append(cut(mo_text(loc), 40_000))
    parts.append(cut(read_text("/usr/share/unicode/emoji/emoji-test.txt"), 150_000))
    hdrs = ""
    for h in ("stdio.h", "stdlib.h", "string.h", "unistd.h", "fcntl.h", "math.h",
              "pthread.h", "signal.h", "time.h", "locale.h"):
        hdrs += read_text("/usr/include/" + h)
    parts.append(cut(hdrs, 150_000))
    py = ""
    for f in sorted(glob.glob("/usr/lib/python3*/json/*.py"))[:10]:
        py += read_text(f)
    parts.append(cut(py, 80_000))
    parts.append(numbers())
    parts.append(cut(read_text("/usr/share/unicode/UnicodeData.txt"), 60_000))
    return cut(clean("\n".join(p for p in parts if p)), MIXED_TARGET)


def edge_cases():
    e = [
        "", "IT'S It's it's 'S 'll 'LL 'Ve we'd I'M", "x   y", "x \t\n y",
        "  leading and trailing  ", "\u00a0nbsp\u00a0word", "line\u2028separator",
        "ideographic\u3000space", "next\u0085line", "zero\u200bwidth\u200bspace",
        "\ufeffBOM at start", "\ufeff\ufeff", "caf\u00e9 cafe\u0301 na\u00efve",
        "\u0130stanbul \u0131", "\uff26\uff35\uff2c\uff2c\uff37\uff29\uff24\uff34\uff28",
        "\ufb01 ligature", "\u017f long s 'ſ", "\u212a kelvin", "\u03a3\u0399\u03a3\u03a5\u03a6\u039f\u03a3 \u03c3\u03bf\u03c6\u03bf\u03c2",
        "z" * 4096, "\u4e2d" * 200, "\u4e2d\u6587 \u65e5\u672c\u8a9e \ud55c\uad6d\uc5b4",
        "a\U0002b820b a\U0002b920b \U0002000b\U00020089", "x\ue000y x\u0378y",
        "12345678901234567890 1234567 3.14159 -42 1e10 0x1F",
        "\U0001F600\U0001F603\U0001F604 ok", "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466 family",
        "\U0001F44D\U0001F3FD thumbs \U0001F1EB\U0001F1F7 flag", "a" * 100, "a" * 101,
        "<|endoftext|> and <|fim_prefix|> text", "[CLS] [SEP] [MASK] [UNK] [PAD]",
        "(parens) [brackets] {braces} $+<=>^`|~", "CamelCaseWords HTTPServer iPhone",
        "tab\there", "carriage\rreturn", "mixed\r\n", "\t\t\tindented", " " * 40,
        "e\u0301\u0301\u0301 combining", "\u0915\u094d\u0937 devanagari",
        "\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22", "\u05e2\u05d1\u05e8\u05d9\u05ea \u0627\u0644\u0639\u0631\u0628\u064a\u0629",
        "don't won't shouldn't y'all 'tis", "http://example.com/a/b?c=d&e=f#g",
        "  \u00a0 \u2003 mixed spaces", "emoji\ufe0f\u20e3 1\ufe0f\u20e3", "\u2581already",
        "1,000,000 and 1.000.000", "snake_case_name __dunder__", "\U0001d400\U0001d401 math",
        "\u1100\u1161\u11a8 jamo", "\u3042\u3044\u3046 \u30ab\u30bf\u30ab\u30ca",
        "\u00c5\u212b \u00bd \u2460 \u00b2", "'", "''", "'''s", "..."
    ]
    return e


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    en = english()
    mx = mixed()
    with open(os.path.join(out, "corpus-en.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write(en)
    with open(os.path.join(out, "corpus-mixed.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write(mx)
    en_lines = en.split("\n")
    mx_lines = mx.split("\n")
    lines = edge_cases()
    lines += en_lines[:: max(1, len(en_lines) // 1500)][:1500]
    lines += mx_lines[:: max(1, len(mx_lines) // 2500)][:2500]
    lines = [l.replace("\n", " ") for l in lines]
    with open(os.path.join(out, "lines.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    note("corpus-en %d bytes, corpus-mixed %d bytes, lines %d" % (
        len(en.encode()), len(mx.encode()), len(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
