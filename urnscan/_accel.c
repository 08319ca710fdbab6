/*
 * Compiled versions of the scanner's byte loops.
 *
 * Each function here has a pure-Python reference of the same name that
 * defines its behaviour (urnscan/scanner.py, urnscan/sources/reader.py,
 * urnscan/context.py, urnscan/sinks/arrays.py), but for plain_reads and
 * place_rows, whose reference is the Python loop each stands beside;
 * urnscan/accel.py picks this module when it was built.  The tests compare
 * the two on generated and real input, and build this file under
 * AddressSanitizer.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* list_entries needs POSIX.1-2008's directory calls and d_type; elsewhere
   (Windows) the walk lists directories with os.scandir */
#if defined(__unix__) || defined(__APPLE__)
#define HAVE_LIST_ENTRIES 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

/* extract/chars.py: BOUNDARY_BYTES = ALNUM | "+-." ; a "urn:" after one of
   them is part of a longer word ("return:", "x.urn:") */
#define ALNUM_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#define BOUNDARY_CHARS ALNUM_CHARS "+-."

/* sources/reader.py: NUL counts alone; the suspicious bytes are C0 controls
   other than TAB, LF, VT, FF, CR, ESC and the information separators
   0x1C-0x1F (ISO 2709 records), plus DEL */
#define BINARY_BLOCK_SIZE (64 * 1024)

static unsigned char is_alnum[256];
static unsigned char is_boundary[256];

static void
init_tables(void)
{
    const char *c;
    for (c = ALNUM_CHARS; *c; c++)
        is_alnum[(unsigned char)*c] = 1;
    for (c = BOUNDARY_CHARS; *c; c++)
        is_boundary[(unsigned char)*c] = 1;
}

static int
index_arg(PyObject *arg, Py_ssize_t *out)
{
    /* Python ints of any size: out of range ones clip, as min() and
       comparisons treat them in the Python code */
    *out = PyNumber_AsSsize_t(arg, NULL);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int
append_offset(PyObject *list, Py_ssize_t offset)
{
    PyObject *v = PyLong_FromSsize_t(offset);
    if (v == NULL)
        return -1;
    int r = PyList_Append(list, v);
    Py_DECREF(v);
    return r;
}

/* scanner.py _NID_START: a letter or digit, or a line break (a URN broken
   right after "urn:") */
static int
nid_start(unsigned char c)
{
    return is_alnum[c] || c == '\r' || c == '\n';
}

static int
is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* chars.py after_escape(): the byte before p ends a string literal's
   escape ("\n", "\t", "\r", "\f", "\v", "\uXXXX", "\xXX") or RTF's
   "\'hh" whose backslash is not itself escaped */
static int
after_escape(const unsigned char *s, Py_ssize_t p)
{
    Py_ssize_t at;
    if (p >= 2 && s[p - 2] == '\\' && memchr("nrtfv", s[p - 1], 5) != NULL)
        at = p - 2;
    else if (p >= 6 && s[p - 6] == '\\' && s[p - 5] == 'u' && is_hex(s[p - 4]) && is_hex(s[p - 3])
             && is_hex(s[p - 2]) && is_hex(s[p - 1]))
        at = p - 6;
    else if (p >= 4 && s[p - 4] == '\\' && (s[p - 3] == 'x' || s[p - 3] == '\'') && is_hex(s[p - 2]) && is_hex(s[p - 1]))
        at = p - 4;
    else
        return 0;
    return at == 0 || s[at - 1] != '\\';
}

/* chars.py after_percent(): a URL's "%XX" ends right before p */
static int
after_percent(const unsigned char *s, Py_ssize_t p)
{
    return p >= 3 && s[p - 3] == '%' && is_hex(s[p - 2]) && is_hex(s[p - 1]);
}

/* whether s[0:n] is well-formed UTF-8 (Unicode 15.0, section 3.9, table
   3-7), as Python's strict decoder reads it */
static int
well_formed_utf8(const unsigned char *s, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char c = s[i], lo = 0x80, hi = 0xBF;
        Py_ssize_t len;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF)
            len = 2;
        else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0)
                lo = 0xA0;
            else if (c == 0xED)
                hi = 0x9F;
        }
        else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0)
                lo = 0x90;
            else if (c == 0xF4)
                hi = 0x8F;
        }
        else
            return 0;
        if (i + len > n || s[i + 1] < lo || s[i + 1] > hi)
            return 0;
        for (Py_ssize_t k = 2; k < len; k++)
            if (s[i + k] < 0x80 || s[i + k] > 0xBF)
                return 0;
        i += len;
    }
    return 1;
}

/* chars.py after_double_byte(): the byte before p is the second byte of a
   double-byte character (Shift_JIS, Big5, GBK, UHC): an odd run of bytes
   0x80-0xFF, not UTF-8, of at most DOUBLE_BYTE_REACH bytes ends right
   before it */
#define DOUBLE_BYTE_REACH 254 /* chars.py: LOOKBACK (256) - 2 */
static int
after_double_byte(const unsigned char *s, Py_ssize_t p)
{
    if (p < 2 || s[p - 2] < 0x81 || s[p - 2] == 0xFF)
        return 0;
    Py_ssize_t q = p - 2;
    Py_ssize_t floor = p - 1 - DOUBLE_BYTE_REACH > 0 ? p - 1 - DOUBLE_BYTE_REACH : 0;
    while (q > floor && s[q - 1] >= 0x80)
        q--;
    if (q > 0 && s[q - 1] >= 0x80)
        return 0;
    if ((p - 1 - q) % 2 == 0)
        return 0;
    return !well_formed_utf8(s + q, p - 1 - q);
}

/* wrapper.py escaped_wrapper_at(): "&lt;" right before "urn:", a 1995
   wrapper as a page showing text with markup writes it ("&lt;URN: a: b&gt;") */
static inline int
after_escaped_lt(const unsigned char *s, Py_ssize_t p)
{
    return p >= 4 && s[p - 4] == '&' && s[p - 3] == 'l' && s[p - 2] == 't' && s[p - 1] == ';';
}

/* "urn:" (ASCII case folded) at p, at a token boundary, followed by a letter
   or digit or a line break, or by a blank inside a 1995 wrapper ("<URN:
   dns:...>", wrapper.py); the caller has checked the four bytes are inside
   the buffer */
static int
keep_at(const unsigned char *s, Py_ssize_t n, Py_ssize_t p)
{
    if (p == 0)
        return n > 4 && nid_start(s[4]);
    /* chars.py after_subfield_code(): a MARC subfield's code after its
       delimiter, 0x1F, "$" or U+2021 ("\x1faurn:...") */
    int coded = is_alnum[s[p - 1]] && p >= 2
                && (s[p - 2] == 0x1F || s[p - 2] == '$'
                    || (p >= 4 && s[p - 4] == 0xE2 && s[p - 3] == 0x80 && s[p - 2] == 0xA1)
                    /* chars.py after_font_change(): a roff font's name
                       after "\f" or "\f(" ("\fIurn:...", "\f(CWurn:...") */
                    || (p >= 3 && s[p - 3] == '\\' && s[p - 2] == 'f')
                    || (p >= 5 && s[p - 5] == '\\' && s[p - 4] == 'f' && s[p - 3] == '('));
    coded = coded || (is_alnum[s[p - 1]] && (after_escape(s, p) || after_percent(s, p) || after_double_byte(s, p)));
    return (!is_boundary[s[p - 1]] || coded)
           && (p + 4 >= n || nid_start(s[p + 4])
               || ((s[p - 1] == '<' || after_escaped_lt(s, p)) && (s[p + 4] == ' ' || s[p + 4] == '\t')));
}

/* the offset of the first "urn:" that keep_at() keeps whose ":" is at an
   index in [i, end) (i >= 3, end <= n), or -1: every ":" closes a possible
   "urn:", and glibc's memchr compares 16 or 32 bytes an instruction */
static Py_ssize_t
next_urn(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, Py_ssize_t end)
{
    while (i < end) {
        const unsigned char *q = memchr(s + i, ':', (size_t)(end - i));
        if (q == NULL)
            return -1;
        Py_ssize_t c = q - s;
        if ((s[c - 1] | 0x20) == 'n' && (s[c - 2] | 0x20) == 'r' && (s[c - 3] | 0x20) == 'u' && keep_at(s, n, c - 3))
            return c - 3;
        i = c + 1;
    }
    return -1;
}

PyDoc_STRVAR(urn_positions_doc,
"urn_positions($module, buf, start, stop, /)\n--\n\n"
"Offsets p in [start, stop) where buf[p:p+4] is \"urn:\" in any case, at a\n"
"token boundary and followed by a letter, a digit or a line break, or a\n"
"blank after \"<\" (see\n"
"urnscan.scanner.urn_positions_py); buf is any contiguous buffer.");

static PyObject *
urn_positions(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t start, stop;
    Py_buffer view;

    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "urn_positions expected 3 arguments, got %zd", nargs);
        return NULL;
    }
    if (index_arg(args[1], &start) < 0 || index_arg(args[2], &stop) < 0)
        return NULL;
    if (start < 0) {
        PyErr_SetString(PyExc_ValueError, "start must not be negative");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *out = PyList_New(0);
    if (out == NULL)
        goto done;
    const unsigned char *s = view.buf;
    Py_ssize_t n = view.len;
    /* end = min(n, stop + 3), without overflowing stop + 3 */
    Py_ssize_t end = stop > n - 3 ? n : stop + 3;
    if (end <= start || end - start < 4)  /* (end - start overflows for a very negative stop) */
        goto done;
    for (Py_ssize_t p = next_urn(s, n, start + 3, end); p >= 0; p = next_urn(s, n, p + 4, end))
        if (append_offset(out, p) < 0) {
            Py_CLEAR(out);
            goto done;
        }
done:
    PyBuffer_Release(&view);
    return out;
}

PyDoc_STRVAR(looks_binary_doc,
"looks_binary($module, first_block, /)\n--\n\n"
"Whether content whose first block is first_block is binary (see\n"
"urnscan.sources.reader.looks_binary_py): one pass over at most the first\n"
"64 KiB counting NUL and suspicious control bytes.");

static int binary_block(const unsigned char *s, Py_ssize_t n);

static PyObject *
looks_binary(PyObject *module, PyObject *block)
{
    Py_buffer view;
    if (PyObject_GetBuffer(block, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    int binary = binary_block(view.buf, view.len);
    PyBuffer_Release(&view);
    return PyBool_FromLong(binary);
}

/* looks_binary() of the content s[0:n] */
static int
binary_block(const unsigned char *s, Py_ssize_t n)
{
    if (n > BINARY_BLOCK_SIZE)
        n = BINARY_BLOCK_SIZE;
    /* branch-free compares the compiler turns into vector code; byte-wide
       sums over blocks of 255 bytes cannot overflow and fill whole vectors */
    Py_ssize_t nul = 0, suspicious = 0;
    for (Py_ssize_t i = 0; i < n; i += 255) {
        Py_ssize_t m = n - i < 255 ? n - i : 255;
        const unsigned char *b = s + i;
        unsigned char block_nul = 0, block_suspicious = 0;
        for (Py_ssize_t j = 0; j < m; j++) {
            unsigned char c = b[j];
            block_nul += c == 0;
            block_suspicious += ((c < 0x1C) & ((unsigned char)(c - 9) > 4) & (c != 27)) | (c == 0x7F);
        }
        nul += block_nul;
        suspicious += block_suspicious;
    }
    return (nul >= 2 && nul * 1000 > n) || (suspicious >= 2 && suspicious * 20 > n);
}

#ifdef HAVE_LIST_ENTRIES
/* documents.py PDF_HEADER_REACH: where "%PDF-" may open a PDF */
#define PDF_HEADER_REACH 1024

static int
starts_with(const unsigned char *s, Py_ssize_t n, const char *mark, Py_ssize_t len)
{
    return n >= len && memcmp(s, mark, (size_t)len) == 0;
}

/* the first i in [start, stop - len] at which s holds the mark (len > 0,
   its first byte no letter; with fold, a letter of the mark in either
   case) right after "urn" in any case, or -1: a prefix whose ":" is
   encoded or escaped, as extract/chars.py next_prefix() looks for it
   (extract/encoded.py "urn%3A", extract/escaped.py "urn\\:") */
static Py_ssize_t
marked_urn(const unsigned char *s, Py_ssize_t start, Py_ssize_t stop, const unsigned char *mark, Py_ssize_t len,
           int fold)
{
    if (start < 3)
        start = 3;  /* no "urn" fits before */
    for (Py_ssize_t i = start; len > 0 && i <= stop - len; i++) {  /* (start may be PY_SSIZE_T_MAX) */
        const unsigned char *q = memchr(s + i, mark[0], (size_t)(stop - len + 1 - i));
        if (q == NULL)
            return -1;
        i = q - s;
        Py_ssize_t j = 1;
        while (j < len) {
            unsigned char c = q[j], m = mark[j];
            if (fold && m >= 'a' && m <= 'z')
                c |= 0x20;
            if (c != m)
                break;
            j++;
        }
        if (j == len && (q[-3] | 0x20) == 'u' && (q[-2] | 0x20) == 'r' && (q[-1] | 0x20) == 'n')
            return i;
    }
    return -1;
}

/* marked_urn() anywhere in s[0:n], a letter of the mark in either case:
   extract/encoded.py may_hold_encoded() (mark "%3a") and
   extract/escaped.py may_hold_escaped() (mark "\\:") */
static int
urn_before_mark(const unsigned char *s, Py_ssize_t n, const char *mark, Py_ssize_t len)
{
    return marked_urn(s, 3, n, (const unsigned char *)mark, len, 1) >= 0;
}

PyDoc_STRVAR(next_marked_urn_doc,
"next_marked_urn($module, buf, mark, start, stop, /)\n--\n\n"
"The first index i in [start, stop) at which buf holds mark (not empty),\n"
"the whole of it before stop, right after a \"urn\" in any case, or -1:\n"
"the search of extract.chars.next_prefix (\"urn%3A\", \"urn\\\\:\"), whose\n"
"every answer has such a \"urn\" before it.  start and stop are not\n"
"negative.");

static PyObject *
next_marked_urn(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t start, stop, found = -1;
    Py_buffer view, mark;

    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "next_marked_urn expected 4 arguments, got %zd", nargs);
        return NULL;
    }
    if (index_arg(args[2], &start) < 0 || index_arg(args[3], &stop) < 0)
        return NULL;
    if (start < 0 || stop < 0) {
        PyErr_SetString(PyExc_ValueError, "next_marked_urn: start and stop must not be negative");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[1], &mark, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    if (stop > view.len)
        stop = view.len;
    found = marked_urn(view.buf, start, stop, mark.buf, mark.len, 0);
    PyBuffer_Release(&mark);
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(found);
}

/* documents.py may_open_message(): s[0:n] starts with a header field that
   opens a mail message -- any "X-" field, or one of these names (ASCII
   case folded) -- then ":" */
static int
may_open_message(const unsigned char *s, Py_ssize_t n)
{
    static const char *const names[] = {
        "return-path", "received", "delivered-to", "envelope-to", "from", "sender", "reply-to", "to", "date",
        "message-id", "subject", "mime-version", "path", "newsgroups", NULL};
    Py_ssize_t k = 0;
    while (k < n && k < 77 && s[k] > 32 && s[k] < 127 && s[k] != ':')
        k++;
    if (k == 0 || k > 76 || k >= n || s[k] != ':')
        return 0;
    if (k >= 2 && (s[0] | 0x20) == 'x' && s[1] == '-')
        return 1;
    for (const char *const *name = names; *name != NULL; name++) {
        if ((Py_ssize_t)strlen(*name) != k)
            continue;
        Py_ssize_t j = 0;
        while (j < k && (unsigned char)(s[j] | 0x20) == (unsigned char)(*name)[j])
            j++;
        if (j == k)
            return 1;
    }
    return 0;
}

/* runner.py nothing_to_find(): the content s[0:n] of a file is plain
   text in which no URN can be found -- none of the marks that make the
   scan read it otherwise, not binary, no "urn:" that the scanner keeps,
   no byte 0xEF (a look-alike's lead byte), no "urn%3A" and no "urn\\:"; when it is
   not, the scan reads it in Python */
static int
nothing_to_find(const unsigned char *s, Py_ssize_t n)
{
    /* codecs.py detect_compression(): gzip, bzip2, xz, zstd */
    if (starts_with(s, n, "\x1f\x8b", 2) || starts_with(s, n, "BZh", 3) || starts_with(s, n, "\xfd" "7zXZ", 5)
            || starts_with(s, n, "\x28\xb5\x2f\xfd", 4))
        return 0;
    /* documents.py container_kind(): a zip file, a WARC file, an ar archive, an mbox separator */
    if (starts_with(s, n, "PK", 2) || starts_with(s, n, "WARC/", 5) || starts_with(s, n, "!<arch>\n", 8)
            || starts_with(s, n, "From ", 5) || may_open_message(s, n))
        return 0;
    /* charsets.py bom_encoding(): UTF-16 and UTF-32 byte-order marks, and
       XML's first bytes in either without one (XML_SIGNATURES) */
    if (starts_with(s, n, "\xff\xfe", 2) || starts_with(s, n, "\xfe\xff", 2) || starts_with(s, n, "\0\0\xfe\xff", 4)
            || starts_with(s, n, "\0\0\0<", 4) || starts_with(s, n, "<\0\0\0", 4)
            || starts_with(s, n, "\0<\0?", 4) || starts_with(s, n, "<\0?\0", 4))
        return 0;
    /* extract/lookalike.py may_hold_suspects(): a fullwidth form's lead byte */
    if (memchr(s, 0xEF, (size_t)n) != NULL)
        return 0;
    /* documents.py _pdf_header(): "%PDF-" starting in the first 1025 bytes */
    Py_ssize_t reach = n < PDF_HEADER_REACH + 5 ? n : PDF_HEADER_REACH + 5;
    for (Py_ssize_t i = 0; i + 5 <= reach; i++) {
        const unsigned char *q = memchr(s + i, '%', (size_t)(reach - 5 + 1 - i));
        if (q == NULL)
            break;
        i = q - s;
        if (memcmp(q, "%PDF-", 5) == 0)
            return 0;
    }
    return !binary_block(s, n) && (n < 4 || next_urn(s, n, 3, n) < 0) && !urn_before_mark(s, n, "%3a", 3)
        && !urn_before_mark(s, n, "\\:", 2);
}

PyDoc_STRVAR(plain_file_triage_doc,
"plain_file_triage($module, path, expected, limit, /)\n--\n\n"
"A regular file listed with expected <= limit bytes, read whole in one\n"
"read: its size when it is plain text with nothing to find in it (see\n"
"urnscan.runner.plain_file_triage_py), else its content; None when it\n"
"cannot be opened or read, or holds more than expected bytes now.\n"
"The file is read and looked through without the interpreter.");

static PyObject *
plain_file_triage(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t expected, limit;
    PyObject *path = NULL;

    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "plain_file_triage expected 3 arguments, got %zd", nargs);
        return NULL;
    }
    if (index_arg(args[1], &expected) < 0 || index_arg(args[2], &limit) < 0)
        return NULL;
    if (expected < 0 || expected > limit || expected == PY_SSIZE_T_MAX) {
        PyErr_SetString(PyExc_ValueError, "expected must be in [0, limit]");
        return NULL;
    }
    if (!PyUnicode_FSConverter(args[0], &path))
        return NULL;
    Py_ssize_t want = expected + 1;  /* one byte more: a file that grew says so */
    PyObject *data = PyBytes_FromStringAndSize(NULL, want);
    if (data == NULL) {
        Py_DECREF(path);
        return NULL;
    }
    unsigned char *buf = (unsigned char *)PyBytes_AS_STRING(data);
    const char *name = PyBytes_AS_STRING(path);
    Py_ssize_t got = -1;
    int nothing = 0;
    Py_BEGIN_ALLOW_THREADS
#ifdef O_CLOEXEC
    int fd = open(name, O_RDONLY | O_CLOEXEC);
#else
    int fd = open(name, O_RDONLY);
#endif
    if (fd >= 0) {
        ssize_t r;
        do
            r = read(fd, buf, (size_t)want);
        while (r < 0 && errno == EINTR);
        close(fd);
        got = r;
        if (r >= 0 && r < want)
            nothing = nothing_to_find(buf, r);
    }
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (got < 0 || got >= want) {
        Py_DECREF(data);
        Py_RETURN_NONE;
    }
    if (nothing) {
        Py_DECREF(data);
        return PyLong_FromSsize_t(got);
    }
    if (_PyBytes_Resize(&data, got) < 0)
        return NULL;
    return data;
}
#endif

/* how many bytes of s[0:n] equal c; byte-wide sums over blocks of 255
   bytes, which the compiler turns into vector code */
static Py_ssize_t
count_byte(const unsigned char *s, Py_ssize_t n, unsigned char c)
{
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < n; i += 255) {
        Py_ssize_t m = n - i < 255 ? n - i : 255;
        unsigned char block = 0;
        for (Py_ssize_t j = 0; j < m; j++)
            block += s[i + j] == c;
        total += block;
    }
    return total;
}

/* how many CR LF pairs s[0:n] holds */
static Py_ssize_t
count_crlf(const unsigned char *s, Py_ssize_t n)
{
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i + 1 < n; i += 255) {
        Py_ssize_t m = n - 1 - i < 255 ? n - 1 - i : 255;
        unsigned char block = 0;
        for (Py_ssize_t j = 0; j < m; j++)
            block += (s[i + j] == '\r') & (s[i + j + 1] == '\n');
        total += block;
    }
    return total;
}

/* the line breaks in s[0:n]: LF, and when cr, CR and CRLF, one each */
static Py_ssize_t
line_breaks(const unsigned char *s, Py_ssize_t n, int cr)
{
    Py_ssize_t breaks = count_byte(s, n, '\n');
    if (cr) {
        Py_ssize_t crs = count_byte(s, n, '\r');
        if (crs)
            breaks += crs - count_crlf(s, n);
    }
    return breaks;
}

PyDoc_STRVAR(count_breaks_doc,
"count_breaks($module, /, buf, a, b, may_have_cr=True)\n--\n\n"
"The line breaks in buf[a:b]: LF, CR and CRLF count one each (see\n"
"urnscan.scanner.count_breaks_py).");

static PyObject *
count_breaks(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"buf", "a", "b", "may_have_cr", NULL};
    PyObject *buf, *a_arg, *b_arg;
    int may_have_cr = 1;
    Py_ssize_t a, b;
    Py_buffer view;

    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|p:count_breaks", keywords, &buf, &a_arg, &b_arg,
                                     &may_have_cr))
        return NULL;
    if (index_arg(a_arg, &a) < 0 || index_arg(b_arg, &b) < 0)
        return NULL;
    if (PyObject_GetBuffer(buf, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    /* the span bytes.count(sub, a, b) reads */
    Py_ssize_t n = PySlice_AdjustIndices(view.len, &a, &b, 1);
    Py_ssize_t breaks = line_breaks((const unsigned char *)view.buf + a, n, may_have_cr);
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(breaks);
}

/* Python's a - b and a + b, clipped to Py_ssize_t as slicing clips them */
static Py_ssize_t
clip_sub(Py_ssize_t a, Py_ssize_t b)
{
    if (b > 0 && a < PY_SSIZE_T_MIN + b)
        return PY_SSIZE_T_MIN;
    if (b < 0 && a > PY_SSIZE_T_MAX + b)
        return PY_SSIZE_T_MAX;
    return a - b;
}

static Py_ssize_t
clip_add(Py_ssize_t a, Py_ssize_t b)
{
    if (b == PY_SSIZE_T_MIN)
        return clip_sub(clip_sub(a, -(b + 1)), 1);
    return clip_sub(a, -b);
}

/* the length of buf[a:b] for a buffer of n bytes, a and b moved to where
   the slice starts */
static Py_ssize_t
slice(Py_ssize_t n, Py_ssize_t *a, Py_ssize_t b)
{
    return PySlice_AdjustIndices(n, a, &b, 1);
}

static int
is_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');  /* [ \t\n\v\f\r] */
}

/* context_snippet's text of s[0:n] (its arguments checked) */
static PyObject *
snippet_of(const unsigned char *s, Py_ssize_t n, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t size, Py_ssize_t lo)
{
    Py_ssize_t a = clip_sub(start, size);
    if (lo > a)
        a = lo;
    Py_ssize_t before_at = a, mid_at = start, after_at = stop;
    Py_ssize_t before_len = slice(n, &before_at, start);
    Py_ssize_t mid_len = slice(n, &mid_at, stop);
    Py_ssize_t after_len = slice(n, &after_at, clip_add(stop, size));
    if (a > 0) {  /* cut into the text: drop a character cut by the window */
        Py_ssize_t k = 0;
        while (k < 3 && k < before_len && s[before_at + k] >= 0x80 && s[before_at + k] < 0xC0)
            k++;
        before_at += k;
        before_len -= k;
    }
    /* drop a character cut short at the end of the window */
    for (Py_ssize_t back = 1; back <= 4 && back <= after_len; back++) {
        unsigned char b = s[after_at + after_len - back];
        if (b < 0x80)
            break;
        if (b >= 0xC0) {
            Py_ssize_t width = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
            if (back < width)
                after_len -= back;
            break;
        }
    }

    char *text = PyMem_Malloc((size_t)(before_len + mid_len + after_len) + 1);
    if (text == NULL)
        return PyErr_NoMemory();
    /* the window's bytes, then in place: U+FEFF (EF BB BF) goes, runs of
       white space become one space, spaces at both ends go */
    Py_ssize_t raw = 0;
    const struct { Py_ssize_t at, len; } parts[3] = {
        {before_at, before_len}, {mid_at, mid_len}, {after_at, after_len}};
    for (int part = 0; part < 3; part++) {
        memcpy(text + raw, s + parts[part].at, (size_t)parts[part].len);
        raw += parts[part].len;
    }
    const unsigned char *p = (const unsigned char *)text;
    Py_ssize_t len = 0;
    for (Py_ssize_t i = 0; i < raw; i++) {
        if (p[i] == 0xEF && i + 2 < raw && p[i + 1] == 0xBB && p[i + 2] == 0xBF)
            i += 2;
        else if (!is_space(p[i]))
            text[len++] = (char)p[i];
        else if (len > 0 && text[len - 1] != ' ')
            text[len++] = ' ';
    }
    if (len > 0 && text[len - 1] == ' ')
        len--;
    PyObject *out = PyUnicode_DecodeUTF8(text, len, "replace");
    PyMem_Free(text);
    return out;
}

PyDoc_STRVAR(context_snippet_doc,
"context_snippet($module, buf, start, stop, size, lo=0, /)\n--\n\n"
"buf[start:stop] with up to size bytes each side (never before lo), white\n"
"space collapsed (see urnscan.context.context_snippet_py).");

static PyObject *
context_snippet(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t start, stop, size, lo = 0;
    Py_buffer view;

    if (nargs < 4 || nargs > 5) {
        PyErr_Format(PyExc_TypeError, "context_snippet expected 4 or 5 arguments, got %zd", nargs);
        return NULL;
    }
    Py_ssize_t *ints[4] = {&start, &stop, &size, &lo};
    for (Py_ssize_t k = 1; k < nargs; k++) {
        /* OverflowError past Py_ssize_t: clipping the operands would
           change the sums that Python computes exactly */
        *ints[k - 1] = PyNumber_AsSsize_t(args[k], PyExc_OverflowError);
        if (*ints[k - 1] == -1 && PyErr_Occurred())
            return NULL;
    }
    if (!(0 <= lo && lo <= start && start <= stop && size >= 0)) {
        PyErr_Format(PyExc_ValueError, "not a span: lo=%zd, start=%zd, stop=%zd, size=%zd", lo, start, stop, size);
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *out = snippet_of(view.buf, view.len, start, stop, size, lo);
    PyBuffer_Release(&view);
    return out;
}

/* ------------------------------------------------------------------------
 * plain_reads: the commonest candidates of extract/fast.py's read_all, read
 * here.  Its reference is read_all itself: for the positions it takes it
 * builds the same Candidate read_all builds, and it stops, handing the
 * position back, wherever read_all would do anything else.  The candidates
 * it takes: a "urn:" after a blank, a line break, ">", '"', "=", "," or ";"
 * whose plain-path match (fast.py _patterns: NID token, literal run, run,
 * _NOTHING_FOLLOWS), after "'" or "(" whose paired match, or inside a URL
 * or form parameters (the URL context read as url.py's StreamContext
 * reads it) whose run to "&", no rule after it changes but the trimming of
 * one mark -- no code pattern, template, placeholder, elision, adjacent
 * literal or concatenation, and a non-empty NSS; and a "<urn:...>" wrapper,
 * without white space or folded over lines (as wrapper.py reads it).
 * ---------------------------------------------------------------------- */

/* the flags of plain_reads' 256-byte table */
#define CLASS_LITERAL 1   /* LITERAL_RUN without "&" */
#define CLASS_RUN 2       /* the profile's run without "&" */
#define CLASS_TRIMMABLE 4 /* extract/trim.py TRIMMABLE */
#define CLASS_AMPERSAND 8 /* "&", in the profile's run */
/* the flags argument: extract/options.py Reading */
#define READ_CODE 1
#define READ_TRIM 2
#define READ_FOLD 4
#define READ_PAIR 8
#define READ_EMBEDDED 16
/* extract/chars.py NID_SCAN_LIMIT and INDENT_LIMIT */
#define NID_SCAN_LIMIT 64
#define INDENT_LIMIT 128
/* code.py CONCATENATION looks this far after a closing quote */
#define CONCATENATION_SPAN 64
#define HEXDUMP_REACH 128 /* extract/hexdump.py */
#define HEXDUMP_MIN_GROUPS 4

static int
is_blank(unsigned char c)
{
    return c == ' ' || c == '\t';
}

static int
is_alpha(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* whether c is one of the (non-NUL) bytes of set */
static int
in_set(unsigned char c, const char *set)
{
    return c != 0 && strchr(set, c) != NULL;
}

/* the index after the blanks of s[i:lim] ([ \t]*) */
static Py_ssize_t
skip_blanks(const unsigned char *s, Py_ssize_t i, Py_ssize_t lim)
{
    while (i < lim && is_blank(s[i]))
        i++;
    return i;
}

#define LOOKBACK 256 /* extract/chars.py: the bytes the scanner keeps before a candidate */

/* chars.py line_start(): the start of the line holding s[p], looked for at
   most reach bytes back; -1 when it starts further back (a buffer holding
   fewer than reach bytes before p starts at the input's start) */
static Py_ssize_t
line_start(const unsigned char *s, Py_ssize_t p, Py_ssize_t reach)
{
    Py_ssize_t floor = p > reach ? p - reach : 0;
    for (Py_ssize_t k = p - 1; k >= floor; k--)
        if (s[k] == '\n' || s[k] == '\r')
            return k + 1;
    return p < reach ? 0 : -1;
}

/* whether s[i:i+4] (inside s[0:hi]) is "urn:", ASCII case folded */
static int
urn_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t hi)
{
    return i + 4 <= hi && (s[i] | 0x20) == 'u' && (s[i + 1] | 0x20) == 'r' && (s[i + 2] | 0x20) == 'n'
           && s[i + 3] == ':';
}

/* chars.py one_line_indent(): "<allOneLine>" in the LOOKBACK (256) bytes
   before p, RFC 4475 section 2.1 (the rules decide whether it is open) */
static int
one_line_open_before(const unsigned char *s, Py_ssize_t p)
{
    static const char tag[] = "<allOneLine>";
    const Py_ssize_t len = (Py_ssize_t)sizeof(tag) - 1;
    Py_ssize_t floor = p > LOOKBACK ? p - LOOKBACK : 0;
    for (Py_ssize_t i = p - len; i >= floor; i--)
        if (s[i] == '<' && memcmp(s + i, tag, (size_t)len) == 0)
            return 1;
    return 0;
}

/* breaks.py: HTML's "<wbr>" ("<wbr/>", "<wbr />", any case) at s[i], a
   break opportunity after which the name goes on */
static int
wbr_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t hi)
{
    return i + 4 < hi && s[i] == '<' && (s[i + 1] | 0x20) == 'w' && (s[i + 2] | 0x20) == 'b'
           && (s[i + 3] | 0x20) == 'r' && in_set(s[i + 4], " />");
}

/* breaks.py _INLINE_TAG at s[i]: the start or end tag of a phrasing
   element a word processor wraps around a word ("<span class=SpellE>",
   "</span>", "<font>", "<a name=x>", "<b>", "<strong>", "<u>"); the
   offset after its ">", or -1.  Its attributes run to the first ">" with
   no "<" before it, so a tag breaks.py refuses (over 400 items, a quote
   left open) is taken here: that only leaves more names to the reading
   rules, which decide */
static Py_ssize_t
inline_tag_end(const unsigned char *s, Py_ssize_t i, Py_ssize_t hi)
{
    static const char *const names[] = {"span", "font", "strong", "a", "b", "u"};
    if (i + 2 >= hi || s[i] != '<')
        return -1;
    Py_ssize_t k = i + 1 + (s[i + 1] == '/');
    for (size_t t = 0; t < sizeof names / sizeof names[0]; t++) {
        Py_ssize_t len = (Py_ssize_t)strlen(names[t]), m = 0;
        if (k + len >= hi)
            continue;
        while (m < len && (s[k + m] | 0x20) == names[t][m])
            m++;
        if (m < len)
            continue;
        Py_ssize_t j = k + len;
        if (s[j] == '>')
            return j + 1;
        if (!in_set(s[j], " \t\r\n"))
            continue;
        for (j++; j < hi && s[j] != '<'; j++)
            if (s[j] == '>')
                return j + 1;
        return -1;
    }
    return -1;
}

/* breaks.py WORD_CLOSED_BEFORE_COLON at s[e]: up to 8 inline tags, then
   ":" and a letter or digit; a word of a name that a word processor
   wrapped in tags, the name going on after them
   ("gbv</span>:3:1-114513") */
static int
word_closed_before_colon(const unsigned char *s, Py_ssize_t e, Py_ssize_t hi)
{
    Py_ssize_t k = e;
    for (int tags = 0; tags < 8; tags++) {
        k = inline_tag_end(s, k, hi);
        if (k < 0)
            return 0;
        if (k + 1 < hi && s[k] == ':' && is_alnum[s[k + 1]])
            return 1;
    }
    return 0;
}

/* fold.py _TRACE_MARK at m in s[0:hi]: [A-Z]:(?=[ \t<]), a protocol trace's
   mark ("C: ", "S: ") */
static int
trace_mark_at(const unsigned char *s, Py_ssize_t m, Py_ssize_t hi)
{
    return m + 2 < hi && s[m] >= 'A' && s[m] <= 'Z' && s[m + 1] == ':' && in_set(s[m + 2], " \t<");
}

/* chars.py line_break_after() of the line break at s[i] (CR LF, LF or CR) */
static Py_ssize_t
line_break_end(const unsigned char *s, Py_ssize_t i, Py_ssize_t hi)
{
    return i + (s[i] == '\r' && i + 1 < hi && s[i + 1] == '\n' ? 2 : 1);
}

/* [ \t>]*(?:[-:&.]|[A-Z]:[ \t<]) from k, the start of the next line: past
   its blanks and a quoted reply's marks (quoting.py), it starts with what a
   fold may go on with (fold.py continuation()), or with a protocol trace's
   mark (the line may go on past it) */
static int
next_line_may_go_on(const unsigned char *s, Py_ssize_t k, Py_ssize_t hi)
{
    while (k < hi && (is_blank(s[k]) || s[k] == '>'))
        k++;
    return k < hi && (in_set(s[k], ":&-.") || trace_mark_at(s, k, hi));
}

/* fold.py PAGE_BREAK_LIMIT: how far a page break may reach */
#define PAGE_BREAK_LIMIT 1024

/* (?s:.){0,PAGE_BREAK_LIMIT}?\[Page  from k in s[0:hi]: the footer of a page
   break (fold.py _PAGE_BREAK) may follow */
static int
page_mark_after(const unsigned char *s, Py_ssize_t k, Py_ssize_t hi)
{
    static const char mark[] = "[Page ";
    Py_ssize_t last = k + PAGE_BREAK_LIMIT < hi - 6 ? k + PAGE_BREAK_LIMIT : hi - 6;
    for (Py_ssize_t i = k; i <= last; i++)
        if (s[i] == '[' && memcmp(s + i, mark, 6) == 0)
            return 1;
    return 0;
}

/* fast.py _NOTHING_FOLLOWS at e in s[0:hi] (e > 0), alternative by
   alternative; each is a lookahead, so the first that holds decides */
static int
nothing_follows(const unsigned char *s, Py_ssize_t e, Py_ssize_t hi)
{
    if (e >= hi)
        return 1;  /* \Z */
    unsigned char c = s[e];
    if (c == '\r' || c == '\n') {
        /* (?!(?:\r\n?|\n) (?![Uu][Rr][Nn]:)[^ \t\r\n]): ldif.py
           folded_ldif_line(), a line break before one space and more text
           but a URN of its own */
        Py_ssize_t q = line_break_end(s, e, hi);
        if (q + 1 < hi && s[q] == ' ' && !in_set(s[q + 1], " \t\r\n") && !urn_at(s, q + 1, hi))
            return 0;
    }
    if (!in_set(c, " \t\r\n\\{[<&|") && c != 0xE2)
        return 1;  /* (?=[^ \t\r\n\\{\[<&|\xe2]) */
    if (is_blank(c) && e + 1 < hi && !in_set(s[e + 1], " \t\r\n|"))
        return 1;  /* (?=[ \t][^ \t\r\n|]) */
    int wrapped = c == '<' && word_closed_before_colon(s, e, hi);
    if (c == '<' && e + 1 < hi && (s[e + 1] == '/' || s[e + 1] == '!') && !wrapped)
        return 1;  /* (?=<[/!])(?!WORD_CLOSED_BEFORE_COLON) */
    if (c == '<' && !in_set(s[e - 1], ":/=(-") && !wbr_at(s, e, hi) && !wrapped)
        return 1;  /* (?<![:/=(-])(?=<)(?!<[Ww][Bb][Rr][ />])(?!WORD_CLOSED_BEFORE_COLON) */
    Py_ssize_t j = skip_blanks(s, e, hi);
    if (j >= hi || (s[j] != '\r' && s[j] != '\n'))
        return 0;
    Py_ssize_t k = line_break_end(s, j, hi);
    /* (?<![-:./?=])(?=[ \t]*(?:\r\n|\r(?!\n)|\n)(?![ \t>]*(?:[-:&.]|[A-Z]:[ \t<]))) */
    if (!in_set(s[e - 1], "-:./?=") && !next_line_may_go_on(s, k, hi))
        return 1;
    Py_ssize_t m = skip_blanks(s, k, hi);
    /* (?<=[-./?=])(?=[ \t]*(?:\r\n|\r(?!\n)|\n)[ \t]*[\r\n]) and no "[Page "
       within PAGE_BREAK_LIMIT of the next line's start */
    if (in_set(s[e - 1], "-./?=") && m < hi && (s[m] == '\r' || s[m] == '\n') && !page_mark_after(s, k, hi))
        return 1;
    /* (?<=\.)(?=[ \t]*(?:\r\n|\r(?!\n)|\n)[ \t]*[A-Z](?!:[ \t<])): a new sentence */
    if (s[e - 1] == '.' && m < hi && s[m] >= 'A' && s[m] <= 'Z' && !trace_mark_at(s, m, hi))
        return 1;
    /* (?=[ \t]*(?:\r\n?|\n)[ \t]*[Uu][Rr][Nn]:) */
    return urn_at(s, m, hi);
}

/* fast.py _MAY_FOLD_IN_URL at e in s[0:hi] (e > 0): an RFC 8792 "\\", a
   table's "|" after blanks, or a line break after one of "-:./?=" or
   before "-", ":", "&" or "." (past quote marks) or a protocol trace's
   mark */
static int
may_fold_in_url(const unsigned char *s, Py_ssize_t e, Py_ssize_t hi)
{
    if (e >= hi)
        return 0;
    if (s[e] == '\\')
        return 1;
    Py_ssize_t j = skip_blanks(s, e, hi);
    if (j >= hi)
        return 0;
    if (s[j] == '|')
        return 1;
    if (s[j] != '\r' && s[j] != '\n')
        return 0;
    if (in_set(s[e - 1], "-:./?="))
        return 1;
    return next_line_may_go_on(s, line_break_end(s, j, hi), hi);
}

/* code.py _PERL_OPERATOR before the delimiter at p - 1: "s", "m", "y",
   "qr", "tr" not ending a word, or "=~" / "!~" and blanks */
static int
perl_operator_before(const unsigned char *s, Py_ssize_t p)
{
    Py_ssize_t j = p - 1, k = p - 1;
    while (k > 0 && k > p - 8 && is_blank(s[k - 1]))
        k--;
    if (k >= 2 && s[k - 1] == '~' && (s[k - 2] == '=' || s[k - 2] == '!'))
        return 1;
    if (k != j)
        return 0;
    Py_ssize_t w;
    if (j >= 1 && (s[j - 1] == 's' || s[j - 1] == 'm' || s[j - 1] == 'y'))
        w = j - 1;
    else if (j >= 2 && s[j - 1] == 'r' && (s[j - 2] == 'q' || s[j - 2] == 't'))
        w = j - 2;
    else
        return 0;
    return w == 0 || !(is_alpha(s[w - 1]) || (s[w - 1] >= '0' && s[w - 1] <= '9') || in_set(s[w - 1], "_$@%&"));
}

/* code.py regex_literal_at()'s first half: a punctuator before the "/" at
   p - 1, blanks between, so the "/" may open a JavaScript regular
   expression ("(/urn:uuid:/i", "P: /urn:x:y/,") */
static int
regex_literal_before(const unsigned char *s, Py_ssize_t p)
{
    Py_ssize_t floor = p - 1 - 16 > 0 ? p - 1 - 16 : 0;  /* code.py _PUNCTUATOR_REACH */
    Py_ssize_t k = p - 2;
    while (k >= floor && is_blank(s[k]))
        k--;
    return k >= floor && in_set(s[k], "(,=:[!&|?{};");
}

/* [A-Za-z_(]: what may follow "%" or " ." in a concatenation */
static int
starts_operand(unsigned char c)
{
    return is_alpha(c) || c == '_' || c == '(';
}

/* (?:\r\n?|\n)?[ \t]*(?:[A-Za-z_($]|['"][^<\s'"]) from s[m]: what may
   follow " ." in a concatenation.  A keyword of SPARQL or Turtle there
   (code.py SPARQL_KEYWORD, no operand) is taken as one all the same: the
   candidate is left to the rules, which read it */
static int
follows_dot_operator(const unsigned char *s, Py_ssize_t m, Py_ssize_t lim)
{
    if (s[m] == '\r' || s[m] == '\n') {
        m += (s[m] == '\r' && m + 1 < lim && s[m + 1] == '\n') ? 2 : 1;
        m = skip_blanks(s, m, lim);
        if (m >= lim)
            return 0;
    }
    unsigned char c = s[m];
    if (is_alpha(c) || c == '_') {
        /* (?![A-Za-z_][A-Za-z0-9_.-]*:(?!:)): a prefixed name ("ns5:cts_urn")
           starts the next Turtle statement, it is no operand */
        Py_ssize_t k = m + 1;
        while (k < lim && (is_alpha(s[k]) || (s[k] >= '0' && s[k] <= '9') || in_set(s[k], "_.-")))
            k++;
        if (k < lim && s[k] == ':' && !(k + 1 < lim && s[k + 1] == ':'))
            return 0;
    }
    if (starts_operand(c) || c == '$')
        return 1;
    return (c == '\'' || c == '"') && m + 1 < lim && !in_set(s[m + 1], "<'\" \t\r\n\f\v");
}

/* code.py concatenated(): an operator after the quote closing at q */
static int
concatenated_after(const unsigned char *s, Py_ssize_t q, Py_ssize_t hi)
{
    Py_ssize_t i = q + 1;
    if (i + 1 < hi && s[i] == '$' && (is_alpha(s[i + 1]) || in_set(s[i + 1], "_{(")))
        return 1;  /* \$[A-Za-z_{(]: a shell word goes on with a variable */
    if (i >= hi || !in_set(s[i], " \t+.|%"))
        return 0;
    Py_ssize_t lim = hi < i + CONCATENATION_SPAN ? hi : i + CONCATENATION_SPAN;
    Py_ssize_t j = skip_blanks(s, i, lim);
    if (j >= lim)
        return 0;
    unsigned char c = s[j];
    Py_ssize_t m = skip_blanks(s, j + 1, lim);  /* after the operator's first byte and blanks */
    if (c == '+') {
        Py_ssize_t k = j + 1 < lim && s[j + 1] == '+' ? j + 2 : j + 1;
        if (!(k < lim && s[k] == '+'))
            return 1;  /* \+\+?(?!\+) */
    }
    if (c == '.' && j + 1 < lim && s[j + 1] == '.' && !(j + 2 < lim && s[j + 2] == '.'))
        return 1;  /* \.\.(?!\.) */
    if (c == '.' && m < lim && s[m] == '$')
        return 1;  /* \.[ \t]*\$ */
    if (c == '.' && j + 7 <= lim && memcmp(s + j + 1, "concat", 6) == 0) {
        Py_ssize_t k = skip_blanks(s, j + 7, lim);
        if (k < lim && s[k] == '(')
            return 1;  /* \.concat[ \t]*\( */
    }
    if (c == '|' && j + 1 < lim && s[j + 1] == '|' && s[q] == '\'')
        return 1;  /* \|\| after "'" (SQL) */
    if (c == '%' && m < lim && starts_operand(s[m]))
        return 1;  /* %[ \t]*[(A-Za-z_] */
    /* [ \t]+\.[ \t]*(?:\r\n?|\n)?[ \t]*(?:[A-Za-z_($]|['"][^<\s'"]) */
    return c == '.' && j > i && m < lim && follows_dot_operator(s, m, lim);
}

/* fold.py adjacent_literal() may find a literal after the quote closing at
   q (then read_all leaves the candidate to the fold rule) */
static Py_ssize_t
past_concatenation(const unsigned char *s, Py_ssize_t j, Py_ssize_t lim)
{
    /* fold.py _ADJACENT's (?:(?:\+\+?|\.\.?|<>)[ \t]*)? at j */
    if (j < lim && (s[j] == '+' || s[j] == '.')) {
        unsigned char op = s[j++];
        if (j < lim && s[j] == op)
            j++;
        return skip_blanks(s, j, lim);
    }
    if (j + 1 < lim && s[j] == '<' && s[j + 1] == '>')
        return skip_blanks(s, j + 2, lim);
    return j;
}

static int
may_adjoin_literal(const unsigned char *s, Py_ssize_t q, Py_ssize_t hi)
{
    Py_ssize_t lim = hi < q + 1 + 2 * INDENT_LIMIT ? hi : q + 1 + 2 * INDENT_LIMIT;
    Py_ssize_t j = past_concatenation(s, skip_blanks(s, q + 1, lim), lim);
    Py_ssize_t k = j < lim && s[j] == '\\' ? j + 1 : j;  /* a line continued */
    if (k < lim && (s[k] == '\r' || s[k] == '\n'))
        j = past_concatenation(s, skip_blanks(s, k + ((s[k] == '\r' && k + 1 < lim && s[k + 1] == '\n') ? 2 : 1), lim),
                               lim);
    if (j > q + 1 && j < lim && (s[j] == '@' || s[j] == 'L' || s[j] == 'U' || s[j] == 'u'))
        j += s[j] == 'u' && j + 1 < lim && s[j + 1] == '8' ? 2 : 1;  /* fold.py _LITERAL_PREFIX */
    else if (j > q + 1 && j < lim && (s[j] == 'b' || s[j] == 'B' || s[j] == 'r' || s[j] == 'R')) {
        /* Python's prefixes: b, r, br, rb in either case */
        int bytes_first = s[j] == 'b' || s[j] == 'B';
        j++;
        if (j < lim && (bytes_first ? (s[j] == 'r' || s[j] == 'R') : (s[j] == 'b' || s[j] == 'B')))
            j++;
    }
    if (j + 1 >= hi || s[j] != s[q])
        return 0;
    /* buf[q+1:q+5].lower() == b"urn:": a URN of its own, not a piece */
    return !urn_at(s, j + 1, hi);
}

/* lists.py list_end(): a "," in s[a:b] right before "urn:" or a URL's
   "scheme://", a "+" right before a "scheme://", or a "&", ";", "/",
   "%XX" or "#word#" right before "urn:" (inside the run, so before b) */
static int
has_list_separator(const unsigned char *s, Py_ssize_t a, Py_ssize_t b)
{
    for (Py_ssize_t i = a; i < b; i++) {
        if ((s[i] == '&' || s[i] == ';' || s[i] == '/') && urn_at(s, i + 1, b))
            return 1;
        if (s[i] == '#') {  /* "#word#" right before "urn:": EN 16931's specification identifier */
            Py_ssize_t k = i + 1;
            while (k < b && k - i <= 32 && is_alpha(s[k]))
                k++;
            if (k > i + 1 && k < b && s[k] == '#' && urn_at(s, k + 1, b))
                return 1;
        }
        if (s[i] == '%' && i + 2 < b && is_hex(s[i + 1]) && is_hex(s[i + 2]) && urn_at(s, i + 3, b))
            return 1;
        if (s[i] != ',' && s[i] != '+')
            continue;
        if (s[i] == ',' && urn_at(s, i + 1, b))
            return 1;
        Py_ssize_t k = i + 1;
        if (k < b && is_alpha(s[k])) {
            while (k < b && k - i <= 31 && (is_alnum[s[k]] || in_set(s[k], "+.-")))
                k++;
            if (k + 2 < b && s[k] == ':' && s[k + 1] == '/' && s[k + 2] == '/')
                return 1;
        }
    }
    return 0;
}

/* lists.py url_query_start(): a "?" in s[a:b] that "+" or "=" does not
   follow */
static int
has_url_query(const unsigned char *s, Py_ssize_t a, Py_ssize_t b)
{
    for (Py_ssize_t i = a; i < b; i++)
        if (s[i] == '?' && !(i + 1 < b && (s[i + 1] == '+' || s[i + 1] == '=')))
            return 1;
    return 0;
}

/* lists.py file_url_path_end(): the URN at p follows "/bitstream/" (any
   case), a repository's file URL, and its run s[nss_start:e] holds a "/" */
static int
in_file_url(const unsigned char *s, Py_ssize_t p, Py_ssize_t nss_start, Py_ssize_t e)
{
    static const char segment[] = "/bitstream/";
    const Py_ssize_t n = (Py_ssize_t)sizeof(segment) - 1;
    if (p < n)
        return 0;
    for (Py_ssize_t k = 0; k < n; k++)
        if ((s[p - n + k] | 0x20) != (unsigned char)segment[k])
            return 0;
    return memchr(s + nss_start, '/', (size_t)(e - nss_start)) != NULL;
}

/* lists.py _later_item_of_a_field(): the URN at p (p >= 1) follows a list
   separator, and the list's first item starts right after the last ","
   within LOOKBACK bytes before it, URN characters from there to p (RFC
   8141's repertoire, _abnf.RFC8141_REPERTOIRE, as lists.py _FIELD_START) */
static int
later_item_of_field(const unsigned char *s, Py_ssize_t p)
{
    if (!in_set(s[p - 1], ";&/#") && !(p >= 3 && s[p - 3] == '%'))
        return 0;
    Py_ssize_t lo = p > LOOKBACK ? p - LOOKBACK : 0;
    Py_ssize_t c = p - 1;
    while (c >= lo && s[c] != ',')
        c--;
    if (c < lo || c + 5 > p || (s[c + 1] | 0x20) != 'u' || (s[c + 2] | 0x20) != 'r' || (s[c + 3] | 0x20) != 'n'
            || s[c + 4] != ':')
        return 0;
    for (Py_ssize_t k = c + 5; k < p; k++)
        if (!is_alnum[s[k]] && !in_set(s[k], "()+,-.:=@;$_!*'%/?#&~"))
            return 0;
    return 1;
}

/* whether text s[a:b] holds the two bytes x y in a row */
static int
has_pair(const unsigned char *s, Py_ssize_t a, Py_ssize_t b, unsigned char x, unsigned char y)
{
    for (Py_ssize_t i = a; i + 1 < b; i++)
        if (s[i] == x && s[i + 1] == y)
            return 1;
    return 0;
}

/* the rule a candidate's opener adds (fast.py: quote_rules, paren_rules,
   wrap_rules) */
enum { NO_PAIR, PAIR_QUOTE, PAIR_PAREN, WRAP };

typedef struct {
    Py_ssize_t end;      /* the candidate's end, after trimming */
    Py_ssize_t lit_end;  /* the end of its literal (RFC 2141) run */
    int pair;            /* NO_PAIR .. WRAP */
    int url;             /* 0, or inside a URL (1) or form parameters (2) */
    int trimmed;         /* the byte trimming cut, or -1 */
    int entity;          /* a character reference ended it (cut:entity) */
    int folded;          /* a wrapper folded over lines: its URN without white space */
    Py_ssize_t fold_at;  /* a bare name broken after "-": where its first line ends (-1: none) */
    Py_ssize_t fold_to;  /* ... and where it goes on, on the next line */
} Read;

/* the NID token from i: [A-Za-z0-9][A-Za-z0-9-]{0,limit-2}: (limit 0: no
   bound); the index after its ":", or -1 */
static Py_ssize_t
nid_token(const unsigned char *s, Py_ssize_t i, Py_ssize_t hi, Py_ssize_t limit)
{
    if (i >= hi || !is_alnum[s[i]])
        return -1;
    Py_ssize_t last = limit ? i + limit - 1 : hi;  /* the ":" is before this */
    i++;
    while (i < hi && i < last && (is_alnum[s[i]] || s[i] == '-'))
        i++;
    return i < hi && s[i] == ':' ? i + 1 : -1;
}

/* the literal run then the run from i, without the bytes a pair excludes:
   (?>([literal]*)[run]*); the end, the literal's in *lit_end */
static Py_ssize_t
runs(const unsigned char *s, Py_ssize_t i, Py_ssize_t hi, const unsigned char *table, int pair,
     Py_ssize_t *lit_end)
{
#define EXCLUDED(c) ((pair == PAIR_QUOTE && (c) == '\'') || (pair == PAIR_PAREN && ((c) == '(' || (c) == ')')))
    while (i < hi && (table[s[i]] & CLASS_LITERAL) && !EXCLUDED(s[i]))
        i++;
    *lit_end = i;
    while (i < hi && (table[s[i]] & CLASS_RUN) && !EXCLUDED(s[i]))
        i++;
#undef EXCLUDED
    return i;
}

/* white space a wrapper may hold (seed 004 section 2) */
static int
is_wrapper_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* code.py MAY_HOLD_PLACEHOLDER: s[a:b] holds a character that a
   placeholder, a variable or a wildcard starts with ("%s", "$id", "@x@",
   "~p", "*version*", "##") */
static int
may_hold_placeholder(const unsigned char *s, Py_ssize_t a, Py_ssize_t b)
{
    for (Py_ssize_t k = a; k < b; k++)
        if (s[k] == '%' || s[k] == '$' || s[k] == '@' || s[k] == '~' || s[k] == '*'
                || (s[k] == '#' && k + 1 < b && s[k + 1] == '#'))
            return 1;
    return 0;
}

/* the "<urn:NID:NSS>" wrapper at p: fast.py's wrapper pattern (no white
   space), or one that wrapper.py wrapped() reads folded over lines (*folded
   set): each run of white space inside holds a line break and is followed
   by more of the name (wrapper.py _folds_only; a ">" starting a line may be
   a quoted reply's mark, quoting.py: reading.py reads it), the NID token
   whole on the first line */
static int
read_wrapped(const unsigned char *s, Py_ssize_t p, Py_ssize_t hi, const unsigned char *table,
             Py_ssize_t wrapper_limit, long flags, Read *r)
{
    if (!urn_at(s, p, hi))
        return 0;
    Py_ssize_t nss_start = nid_token(s, p + 4, hi, 0);
    if (nss_start < 0)
        return 0;
    Py_ssize_t limit = p + wrapper_limit < hi ? p + wrapper_limit : hi;  /* wrapped(): e < limit */
    Py_ssize_t lit_end, e = runs(s, nss_start, limit, table, NO_PAIR, &r->lit_end);
    if (e <= nss_start)
        return 0;
    int folded = 0;
    while (e < limit && is_wrapper_space(s[e])) {
        int breaks = 0;
        for (; e < limit && is_wrapper_space(s[e]); e++)
            breaks |= s[e] == '\r' || s[e] == '\n';
        Py_ssize_t next = runs(s, e, limit, table, NO_PAIR, &lit_end);
        if (!breaks || next == e)
            return 0;  /* a blank inside a line (code or prose), or white space before ">" */
        folded = 1;
        e = next;
    }
    if (e >= limit || s[e] != '>')
        return 0;
    unsigned char last = 0;
    for (Py_ssize_t k = nss_start; k < e; k++) {
        if (is_wrapper_space(s[k]))
            continue;
        if (last == '.' && s[k] == '.')
            return 0;  /* maybe elided, "<URN:IANA:...>": reading.py */
        last = s[k];
    }
    if (last == '/')
        return 0;  /* maybe an empty element, "<urn:x:y/>": reading.py (hand back any final "/") */
    if ((flags & READ_CODE) && may_hold_placeholder(s, p + 4, e))
        return 0;  /* maybe a template, "<urn:uuid:%s>": reading.py */
    r->end = e;
    r->pair = WRAP;
    r->url = 0;
    r->trimmed = -1;
    r->folded = folded;
    return 1;
}

/* extract/url.py TokenContext: what is known of the token being read */
#define SCHEME_LIMIT 64
typedef struct {
    unsigned char head[SCHEME_LIMIT];
    Py_ssize_t head_len;
    int dslash, query, slash;
    int last;  /* -1: nothing read yet */
    int form;  /* the token so far fits (name=value&)* name[=value] */
    Py_ssize_t name_len, value_len;
    int name_alpha, in_value;
} Token;

static void
token_reset(Token *t)
{
    t->head_len = 0;
    t->dslash = t->query = t->slash = 0;
    t->last = -1;
    t->form = 1;
    t->name_len = t->value_len = 0;
    t->name_alpha = t->in_value = 0;
}

/* url.py _NAME and _VALUE: [A-Za-z0-9_.~%+-] and the same with ":" */
static int
is_name_char(unsigned char c)
{
    return is_alnum[c] || in_set(c, "_.~%+-");
}

/* TokenContext.feed of d[0:n] (n > 0, no token stop inside) */
static void
token_feed(Token *t, const unsigned char *d, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n && t->head_len < SCHEME_LIMIT; i++)
        t->head[t->head_len++] = d[i];
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = d[i];
        if (c == '/' && (i > 0 ? d[i - 1] == '/' : t->last == '/'))
            t->dslash = 1;
        t->query |= c == '?';
        t->slash |= c == '/';
        if (!t->form)
            continue;
        /* _feed_form, a byte at a time */
        if (c == '&') {
            if (!(t->in_value && t->name_len))
                t->form = 0;  /* a parameter without "name=" */
            t->name_len = t->value_len = 0;
            t->name_alpha = t->in_value = 0;
        }
        else if (!t->in_value) {
            if (c == '=')
                t->in_value = 1;
            else if (!is_name_char(c))
                t->form = 0;
            else {
                if (t->name_len == 0)
                    t->name_alpha = is_alpha(c);
                t->name_len++;
            }
        }
        else if (is_name_char(c) || c == ':')
            t->value_len++;
        else
            t->form = 0;
    }
    t->last = d[n - 1];
}

/* TokenContext.embedded: 1 inside a URL, 2 in form parameters, 0 neither */
static int
token_embedded(const Token *t)
{
    if (t->last < 0)
        return 0;
    Py_ssize_t k = 0;
    if (t->head_len && is_alpha(t->head[0])) {  /* _SCHEME: [A-Za-z][A-Za-z0-9+.-]*: */
        k = 1;
        while (k < t->head_len && (is_alnum[t->head[k]] || in_set(t->head[k], "+.-")))
            k++;
        if (k < t->head_len && t->head[k] == ':') {
            static const char magnet[] = "magnet:";
            int is_magnet = t->head_len >= 7;
            for (int j = 0; j < 7 && is_magnet; j++)
                is_magnet = (t->head[j] | (is_alpha(t->head[j]) ? 0x20 : 0)) == (unsigned char)magnet[j];
            if (t->dslash || t->query || is_magnet) {
                /* url.py _LIST_SEPARATORS: a list's next item after a URL's path */
                if ((t->last == ',' || t->last == ';') && !t->query)
                    return 0;
                return 1;
            }
        }
    }
    if (in_set((unsigned char)t->last, "/?=") && (t->slash || t->query))
        return 1;
    if (t->form && t->in_value && !t->value_len && t->name_alpha)
        return 2;
    return 0;
}

/* fold.py _FUNCTION_WORDS: words that go on a sentence, not a name */
static const char *const function_words[] = {
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "for", "from", "has", "have", "if", "in", "is", "it",
    "may", "must", "not", "of", "on", "or", "should", "so", "that", "the", "then", "this", "to", "was", "were",
    "which", "will", "with", NULL};

static int
function_word(const unsigned char *s, Py_ssize_t a, Py_ssize_t b)
{
    for (const char *const *w = function_words; *w != NULL; w++) {
        Py_ssize_t n = (Py_ssize_t)strlen(*w);
        if (n != b - a)
            continue;
        Py_ssize_t k = 0;
        while (k < n && (s[a + k] | (is_alpha(s[a + k]) ? 0x20 : 0)) == (unsigned char)(*w)[k])
            k++;
        if (k == n)
            return 1;
    }
    return 0;
}

/* the characters of a name the fold path below takes: letters, digits and
   "._:-" -- none that a rule of code, lists, queries, parameters or
   quotes looks at */
static int
plain_name_chars(const unsigned char *s, Py_ssize_t a, Py_ssize_t b)
{
    for (Py_ssize_t k = a; k < b; k++)
        if (!(is_alnum[s[k]] || s[k] == '.' || s[k] == '_' || s[k] == ':' || s[k] == '-'))
            return 0;
    return 1;
}

/* the index after blanks from i (fold.py blanks_end: at most INDENT_LIMIT) */
static Py_ssize_t
blanks_end(const unsigned char *s, Py_ssize_t i, Py_ssize_t hi)
{
    return skip_blanks(s, i, i + INDENT_LIMIT < hi ? i + INDENT_LIMIT : hi);
}

/* reading.py _comment_close(): the name s[..e) ends with the close of a
   comment (C's star and slash, or the "--" of "-->"), which finish() trims */
static int
comment_close(const unsigned char *s, Py_ssize_t e, Py_ssize_t hi)
{
    return (s[e - 2] == '*' && s[e - 1] == '/') || (s[e - 2] == '-' && s[e - 1] == '-' && e < hi && s[e] == '>');
}

/* fold.py _line_comment(): the line holding s[p], starting at most
   LOOKBACK bytes back, starts with blanks and a line comment's mark ("#"
   or "//") before p */
static int
line_comment_before(const unsigned char *s, Py_ssize_t p)
{
    Py_ssize_t ls = line_start(s, p, LOOKBACK);
    if (ls < 0)
        return 0;
    Py_ssize_t i = skip_blanks(s, ls, p);
    return i < p && (s[i] == '#' || (s[i] == '/' && i + 1 < p && s[i + 1] == '/'));
}

/* fold.py continuation() of the commonest fold: a bare name (after a blank
   or a line break) whose first line, s[p:e], ends in "-" after which an
   RFC formatter broke it, the next line going on with an indented word
   that is no function word ("urn:nbn:de:gbv:7-webdoc-" then "1818245"),
   nothing after that word that may go on further (nothing_follows), and
   no character in the name that another rule looks at; reading.py
   finish() then trims at most one mark (".", or a last ",", ";" or "!").
   Returns read_one's answer: 1 and *r, or 0 (read_all reads it) */
static int
read_hyphen_fold(const unsigned char *s, Py_ssize_t p, Py_ssize_t nss_start, Py_ssize_t e, Py_ssize_t hi,
                 const unsigned char *table, Py_ssize_t cap, long flags, Read *r)
{
    if (e - p > cap || e <= nss_start || s[e - 1] != '-' || !plain_name_chars(s, nss_start, e)
            || one_line_open_before(s, p) || line_comment_before(s, p))
        return 0;
    Py_ssize_t w = blanks_end(s, e, hi);
    if (w >= hi || (s[w] != '\r' && s[w] != '\n'))
        return 0;
    Py_ssize_t q = blanks_end(s, line_break_end(s, w, hi), hi);
    if (q >= hi || !is_alnum[s[q]] || urn_at(s, q, hi) || trace_mark_at(s, q, hi))
        return 0;  /* an empty line, a URN of its own, a protocol trace's mark: fold.py reads them */
    Py_ssize_t lit_end, t = runs(s, q, hi, table, NO_PAIR, &lit_end);
    if (t - p > cap || !plain_name_chars(s, q, t - 1) || function_word(s, q, t)
            || !(plain_name_chars(s, t - 1, t) || ((flags & READ_TRIM) && in_set(s[t - 1], ",;!")))
            || (t < hi && s[t] >= 0x80) || !nothing_follows(s, t, hi)
            || (t < hi && (s[t] == '\r' || s[t] == '\n') && one_line_open_before(s, q)))
        return 0;
    unsigned char last = s[t - 1];
    if (last == ':')
        return 0;  /* reading.py finish(): a key's or an example's ":" */
    if ((flags & READ_TRIM) && t - q >= 2 && comment_close(s, t, hi))
        return 0;  /* reading.py finish(): trim:comment */
    /* (what follows the word is no template's or pattern's start: nothing_follows
       took none of "{[\\&", no byte past ASCII, no "<" after "-") */
    if ((flags & READ_CODE) && (has_pair(s, p, e, '.', '.') || has_pair(s, q, t, '.', '.')))
        return 0;  /* an elision: elision.py elided() */
    r->trimmed = -1;
    if ((flags & READ_TRIM) && (table[last] & CLASS_TRIMMABLE)) {
        if (t - 1 <= q || (table[s[t - 2]] & CLASS_TRIMMABLE) || s[t - 2] == ':')
            return 0;  /* trim.py: more than one mark, or a ":" left last (layout.py example_colon()) */
        r->trimmed = last;
        t--;
    }
    r->end = t;
    r->pair = NO_PAIR;
    r->url = 0;
    r->fold_at = e;
    r->fold_to = q;
    return 1;
}

/* extract/chars.py TOKEN_STOP */
static int
is_token_stop(unsigned char c)
{
    return in_set(c, " \t\r\n\"'<>()[]{}|\\^`");
}

/* StreamContext, read by plain_reads: the token state at buffer index at */
typedef struct {
    Token token;
    Py_ssize_t at;
    int moved;  /* whether it was read or restarted here (then stored back) */
} Stream;

/* StreamContext.restart(base + p) */
static void
stream_restart(Stream *st, Py_ssize_t p)
{
    if (p > st->at) {
        token_reset(&st->token);
        st->at = p;
        st->moved = 1;
    }
}

/* StreamContext.skip_to(base + p): the token restarts after the last
   token stop read */
static void
stream_skip_to(Stream *st, const unsigned char *s, Py_ssize_t p)
{
    if (p <= st->at)
        return;
    Py_ssize_t a = st->at > 0 ? st->at : 0, stop = a;
    for (Py_ssize_t k = p - 1; k >= a; k--)
        if (is_token_stop(s[k])) {
            stop = k + 1;
            break;
        }
    if (stop > a)
        token_reset(&st->token);
    if (p > stop)
        token_feed(&st->token, s + stop, p - stop);
    st->at = p;
    st->moved = 1;
}

/* hexdump.py in_hexdump_column(): s[p] in the text column of a hex dump
   line (offset, four or more groups of 2 or 4 hex digits, two blanks) */
static int
in_hexdump_column(const unsigned char *s, Py_ssize_t p)
{
    /* the line's start, when it is at most HEXDUMP_REACH bytes back */
    Py_ssize_t ls = line_start(s, p, HEXDUMP_REACH + 1);
    if (ls < 0)
        return 0;
    Py_ssize_t i = skip_blanks(s, ls, p), j = i;
    while (j < p && is_hex(s[j]))
        j++;
    if (j - i < 2 || j - i > 8)
        return 0;
    i = j < p && s[j] == ':' ? j + 1 : j;
    Py_ssize_t groups = 0;
    while (i < p) {
        Py_ssize_t b = skip_blanks(s, i, p);
        if (b == i)
            break;
        if (groups >= HEXDUMP_MIN_GROUPS && b - i >= 2)
            return 1;  /* two blanks after a group: the text column starts here, p in it */
        if (b - i > 3)
            break;
        j = b;
        while (j < p && is_hex(s[j]))
            j++;
        if ((j - b != 2 && j - b != 4) || j >= p || !is_blank(s[j]))
            break;
        groups++;
        i = j;
    }
    return 0;
}

/* entity.py: the length of the character reference at s[i] ("&quot;",
   "&#39;") when it ends a URN -- a named one other than "&amp;" and
   "&shy;", or a numeric one of a character no name holds and no break
   opportunity -- else 0 (no reference, or one that may stand for a
   character of the name, or for nothing) */
static Py_ssize_t
ending_reference(const unsigned char *s, Py_ssize_t i, Py_ssize_t hi)
{
    Py_ssize_t j = i + 1;
    if (j >= hi)
        return 0;
    if (s[j] != '#') {
        if (!((s[j] | 0x20) >= 'a' && (s[j] | 0x20) <= 'z'))
            return 0;
        Py_ssize_t k = j + 1;
        while (k < hi && k - j < 8 && is_alnum[s[k]])
            k++;
        if (k - j < 2 || k >= hi || s[k] != ';' || (k - j == 3 && (memcmp(s + j, "amp", 3) == 0
                                                               || memcmp(s + j, "shy", 3) == 0)))
            return 0;  /* entity.py: "&amp;" may go on a component, "&shy;" on the name */
        return k + 1 - i;
    }
    int hex = j + 1 < hi && (s[j + 1] | 0x20) == 'x';
    Py_ssize_t k = j + 1 + hex, digits = k;
    long code = 0;
    while (k < hi && k - digits < (hex ? 6 : 7) && (hex ? is_hex(s[k]) : (s[k] >= '0' && s[k] <= '9'))) {
        code = code * (hex ? 16 : 10) + (s[k] <= '9' ? s[k] - '0' : (s[k] | 0x20) - 'a' + 10);
        k++;
    }
    if (k == digits || k >= hi || s[k] != ';')
        return 0;
    if ((code < 128 && (is_alnum[code] || in_set((unsigned char)code, "-._~:/"))) || code == 0xAD || code == 0x200B)
        return 0;  /* a character of the name, or a break opportunity, written as a reference */
    return k + 1 - i;
}

/* reading.py without_nid() for a "urn:" at p that no "<" precedes: 1 when
   no NID token and its ":" follow it, nor a line break; 0 also where the
   token goes on past the bound or may hold a character reference */
static int
without_nid(const unsigned char *s, Py_ssize_t p, Py_ssize_t hi)
{
    Py_ssize_t i = p + 4;
    if (i >= hi)
        return 1;
    if (s[i] == '\r' || s[i] == '\n') {
        /* reading.py _no_name_after_break(): _after_scheme_break() reads a
           "urn:" in lower case or on a URL whose next line, empty or not,
           may start with a NID token */
        if (!(s[p] == 'u' && s[p + 1] == 'r' && s[p + 2] == 'n') && !(p > 0 && (s[p - 1] == '/' || s[p - 1] == '=')))
            return 1;
        Py_ssize_t q = blanks_end(s, line_break_end(s, i, hi), hi);
        return q < hi && s[q] != '\r' && s[q] != '\n' && nid_token(s, q, hi, NID_SCAN_LIMIT) < 0;
    }
    if (!is_alnum[s[i]])
        return 1;
    Py_ssize_t limit = hi - i > 2 * NID_SCAN_LIMIT ? i + 2 * NID_SCAN_LIMIT : hi;
    while (i < limit && (is_alnum[s[i]] || s[i] == '-'))
        i++;
    if (i < limit && s[i - 1] == '-') {
        /* reading.py _BROKEN_NID: a NID cut after a hyphen at the end of
           its line ("urn:schemas-" then "upnp-org:..."), _after_nid_break() */
        Py_ssize_t b = blanks_end(s, i, hi);
        if (b < hi && (s[b] == '\r' || s[b] == '\n'))
            return 0;
    }
    return i < limit && s[i] != ':' && s[i] != '&';
}

/* the candidate at p as read_all reads it, when none but the plain path's
   rules shape it: 1 and *r; 2 when there is none (read_all passes over
   p); 0 where read_all would do anything else */
static int
read_one(const unsigned char *s, Py_ssize_t p, Py_ssize_t hi, const unsigned char *table, Py_ssize_t cap,
         Py_ssize_t wrapper_limit, long flags, Stream *st, Read *r)
{
    unsigned char before = s[p - 1];
    int pair, url = 0;
    if (is_alnum[before])
        return 0;  /* chars.py after_code(): a code, an escape or "%XX" before "urn:" (reading.py) */
    r->entity = r->folded = 0;
    r->fold_at = r->fold_to = -1;
    if ((flags & READ_CODE) && in_hexdump_column(s, p))
        return 0;  /* read_all: no URN in a hex dump's text column */
    if (is_token_stop(before))
        stream_restart(st, p);  /* a token starts at p: not inside a URL */
    else {
        stream_skip_to(st, s, p);
        url = token_embedded(&st->token);
    }
    if (before == ';' && after_escaped_lt(s, p))
        return 0;  /* maybe an escaped 1995 wrapper: reading.py reads it (wrapper.py) */
    if (before != '<' && without_nid(s, p, hi))
        return 2;
    if (urn_at(s, p + 4, hi))
        return 0;  /* the NID "urn": maybe a label before a URN, reading.py labelled() */
    if (url) {
        if (!(flags & READ_EMBEDDED))
            return 0;
        pair = NO_PAIR;
    }
    else if (before == '<')
        return read_wrapped(s, p, hi, table, wrapper_limit, flags, r);
    else if (before == '\'' || before == '(') {
        if (!(flags & READ_PAIR))
            return 0;
        pair = before == '(' ? PAIR_PAREN : PAIR_QUOTE;
    }
    else if (before == '=' && (flags & READ_PAIR) && !(p >= 2 && is_alnum[s[p - 2]]))
        return 0;  /* pairing.py opener_before(): maybe Org's verbatim, "=urn:...=" */
    else if (is_blank(before) || before == '\n' || before == '\r' || before == '>' || before == '"'
             || before == '=' || before == ',' || before == ';' || before == '{')
        pair = NO_PAIR;  /* "{": Clark notation, "{urn:x:ns}name" (reading.py: a brace pairs no run) */
    else
        return 0;
    Py_ssize_t nss_start = nid_token(s, p + 4, hi, NID_SCAN_LIMIT);
    if (nss_start < 0)
        return 0;
    Py_ssize_t e = runs(s, nss_start, hi, table, pair, &r->lit_end);
    /* the run the rules read ends at run_end: past a character reference
       that ends the URN at e ("&quot;urn:x:y&quot;</span>" in HTML source,
       entity.py), where the profile's run holds "&"; the rules of what
       follows a run look there, those of the name at e */
    Py_ssize_t run_end = e;
    if (!url && e < hi && s[e] == '&') {
        Py_ssize_t ref = ending_reference(s, e, hi);
        if (ref == 0 || pair != NO_PAIR || before != ';' || !(table['&'] & CLASS_AMPERSAND))
            return 0;
        run_end = e + ref;
        while (run_end < hi && (table[s[run_end]] & (CLASS_RUN | CLASS_AMPERSAND)))
            run_end++;
        if (memchr(s + nss_start, '?', (size_t)(run_end - nss_start)) != NULL || s[run_end - 1] == ':')
            return 0;  /* fold.py: a query may go on on the next line; layout.py key_colon() */
        r->entity = 1;
    }
    if (run_end < hi && s[run_end] >= 0x80)
        return 0;  /* reading.py letters_on(): a letter outside ASCII may go on the name */
    if ((flags & READ_EMBEDDED) && before == '=' && memchr(s + p + 4, ';', (size_t)(e - p - 4)) != NULL)
        return 0;  /* maybe the value of a ";name=" parameter: params.py */
    if (has_list_separator(s, nss_start, run_end)
        || ((before == ',' || later_item_of_field(s, p))
            && memchr(s + nss_start, ',', (size_t)(run_end - nss_start)) != NULL))
        return 0;  /* reading.py finish(): the rule of lists (lists.py list_end(): a field of CSV,
                      and a later item of a list in one) */
    for (Py_ssize_t k = nss_start; k + 1 < run_end; k++)
        if (s[k] == '$' && (s[k + 1] == '$' || (s[k + 1] < 0x80 && is_alnum[s[k + 1]])))
            return 0;  /* reading.py finish(): cut:subfield ("$$", and "$a" in MARC mnemonic text) */
    if (url) {
        /* inside a URL the run ends at "&" (or at the URL's query) */
        if (e - p > cap || e <= nss_start || has_url_query(s, nss_start, e))
            return 0;
        if (in_file_url(s, p, nss_start, e))
            return 0;  /* reading.py finish(): cut:url-path */
        if ((flags & READ_FOLD) && may_fold_in_url(s, e, hi))
            return 0;  /* reading.py _url_fold() */
        if (memchr(s + nss_start, '\'', (size_t)(e - nss_start)) != NULL)
            return 0;  /* url.py url_quoted(): maybe the quote closing the URL */
        if ((s[e - 2] == '/' && s[e - 1] == '*') || s[e - 1] == ':')
            return 0;  /* reading.py finish(): a URL path's wildcard step after the URN; layout.py
                          example_colon(): a ":" that ends an element's text */
    }
    else {
        if (pair == NO_PAIR && !nothing_follows(s, run_end, hi))
            return (flags & READ_FOLD) && run_end == e && (is_blank(before) || before == '\n' || before == '\r')
                   ? read_hyphen_fold(s, p, nss_start, e, hi, table, cap, flags, r) : 0;
        if (pair != NO_PAIR && !(e < hi && s[e] == (pair == PAIR_PAREN ? ')' : '\'')))
            return 0;
        if ((flags & READ_FOLD) && run_end < hi && (s[run_end] == '\r' || s[run_end] == '\n')
                && one_line_open_before(s, p))
            return 0;  /* fold.py _one_line(): inside an <allOneLine> block */
        if (run_end - p > cap || s[e - 1] == ':' || e <= nss_start)
            return 0;
    }
    /* the closer of a quote or parenthesis, right after the run */
    int quoted = pair == PAIR_QUOTE || before == '"';
    int closed = pair != NO_PAIR || (before == '"' && e < hi && s[e] == '"');
    if (closed && pair != PAIR_PAREN && (flags & READ_FOLD) && e + 1 < hi && in_set(s[e + 1], " \t\r\n\"'+.<\\")
            && may_adjoin_literal(s, e, hi))
        return 0;
    if (before == '"' && !closed && (flags & READ_FOLD)
            && (is_alnum[s[e - 1]] || s[e - 1] == ',' || s[e - 1] == ';')) {
        Py_ssize_t j = skip_blanks(s, e, hi);
        if (j < hi && (s[j] == '\r' || s[j] == '\n'))
            return 0;  /* fold.py BROKEN_STRING_LAST: a string broken for display */
    }
    /* fold.py literal_closer(): a URN that starts inside a literal */
    Py_ssize_t q = run_end < hi && s[run_end] == '"' ? run_end
                   : (run_end - 1 > nss_start && s[run_end - 1] == '\'' ? run_end - 1 : -1);
    if (!closed && !url && q >= 0 && (flags & READ_FOLD) && q + 1 < hi && in_set(s[q + 1], " \t\r\n\"'+.<\\")
            && may_adjoin_literal(s, q, hi))
        return 0;
    unsigned char last = s[e - 1];
    if ((flags & READ_TRIM) && last == ':' && s[e - 2] == ')')
        return 0;  /* reading.py finish(): a sentence's ":" after its ")" */
    if (flags & READ_CODE) {
        int after = e < hi ? s[e] : -1;
        if (before == '^' || before == ':')
            return 0;  /* "^urn:...", "(?:urn:...": maybe a pattern */
        if (in_set(before, "/{#|!") && perl_operator_before(s, p))
            return 0;  /* Perl's "s/", "qr{", "=~ /": code.py is_pattern() */
        if (before == '/' && regex_literal_before(s, p))
            return 0;  /* maybe a JavaScript regular expression: code.py is_pattern() */
        if (after == 0xE2 || after == '{' || after == '[' || after == '\\')
            return 0;
        if (after == ' ' && s[nss_start] == '(')
            return 0;  /* reading.py _placeholder_in_parentheses(): "urn:uuid:(Alice's UA's bits)" */
        if (after == '<' && in_set(last, ":/=-(") && !(e + 1 < hi && (s[e + 1] == '/' || s[e + 1] == '!')))
            return 0;  /* a template: "urn:x:<nss>" */
        if (after == '&' && in_set(last, ":/=-("))
            return 0;  /* maybe one with "<" escaped: "urn:x:&lt;nss&gt;" */
        if (last == '$' || last == '(')
            return 0;  /* an anchor, a group: maybe a pattern */
        if (may_hold_placeholder(s, p, e))
            return 0;  /* code.py has_placeholder(): "%s", "${x}", "*version*"; a wildcard: "urn:x:nodes:*" */
        if (has_pair(s, p, e, '.', '.') || has_pair(s, p, e, '.', '*') || has_pair(s, p, e, '.', '+')
                || has_pair(s, p, e, '(', '?') || has_pair(s, p, e, '#', '#'))
            return 0;  /* "...", ".*", ".+", "(?", "##" */
        if (closed && quoted && concatenated_after(s, e, hi))
            return 0;
        if (!closed && after == '"' && concatenated_after(s, e, hi))
            return 0;  /* reading.py _code(): the string the URN starts inside goes on */
        for (Py_ssize_t k = p; k < e; k++)
            if (s[k] == '\'' && concatenated_after(s, k, hi))
                return 0;  /* "urn:uuid:'+book_id+'": the string closed inside the run */
    }
    if ((flags & READ_TRIM) && e - 2 > nss_start && comment_close(s, e, hi))
        return 0;  /* reading.py finish(): trim:comment */
    r->pair = pair;
    r->url = url;
    r->trimmed = -1;
    if ((flags & READ_TRIM) && (table[last] & CLASS_TRIMMABLE)) {
        /* trim.py trim() of one mark that no other mark or ")" precedes */
        unsigned char prev = s[e - 2];
        if ((closed && quoted) || (url && e < hi && (s[e] == '"' || s[e] == '\'')))
            return 0;  /* reading.py _code_literal(), _url_literal(): the literal may keep its mark */
        if (last == ')' || last == '&' || (table[prev] & CLASS_TRIMMABLE) || ((flags & READ_CODE) && prev == '(')
                || e - 1 <= nss_start)
            return 0;
        r->trimmed = last;
        e--;
    }
    if (url && s[e - 1] == '/')
        return 0;  /* reading.py finish(): a URL path's "/" after the URN */
    if (e - 2 > nss_start && s[e - 2] == '\'' && (s[e - 1] | 0x20) == 's')
        return 0;  /* reading.py finish(): a possessive "'s" */
    r->end = e;
    return 1;
}

/* the ASCII text s[0:n] without the white space a wrapper may hold */
static PyObject *
without_white_space(const unsigned char *s, Py_ssize_t n)
{
    Py_ssize_t len = 0;
    for (Py_ssize_t k = 0; k < n; k++)
        len += !is_wrapper_space(s[k]);
    PyObject *out = PyUnicode_New(len, 127);
    if (out == NULL)
        return NULL;
    Py_UCS1 *d = PyUnicode_1BYTE_DATA(out);
    for (Py_ssize_t k = 0; k < n; k++)
        if (!is_wrapper_space(s[k]))
            *d++ = s[k];
    return out;
}

/* the ASCII text s[p:a] + s[b:end]: a name joined over a fold */
static PyObject *
joined(const unsigned char *s, Py_ssize_t p, Py_ssize_t a, Py_ssize_t b, Py_ssize_t end)
{
    PyObject *out = PyUnicode_New((a - p) + (end - b), 127);
    if (out == NULL)
        return NULL;
    Py_UCS1 *d = PyUnicode_1BYTE_DATA(out);
    memcpy(d, s + p, (size_t)(a - p));
    memcpy(d + (a - p), s + b, (size_t)(end - b));
    return out;
}

/* a Candidate (reading.py): (start, end, form, folded, embedded, urn,
   literal, text, rules); consts = (Candidate, "bare", "wrapped", pair:quote,
   pair:paren, wrap:1995, per byte the trimming rule or None, embedded:url,
   embedded:form, cut:entity, fold:wrapper, fold:rfc) */
static PyObject *
new_candidate(PyObject *consts, PyObject *no_rules, const unsigned char *s, Py_ssize_t p, const Read *r)
{
    PyTypeObject *type = (PyTypeObject *)PyTuple_GET_ITEM(consts, 0);
    PyObject *form = PyTuple_GET_ITEM(consts, r->pair == WRAP ? 2 : 1);
    PyObject *opener_rule = r->url ? PyTuple_GET_ITEM(consts, 6 + r->url)
                            : r->pair == NO_PAIR ? NULL : PyTuple_GET_ITEM(consts, 2 + r->pair);
    PyObject *trim_rule = r->trimmed < 0 ? NULL : PyTuple_GET_ITEM(PyTuple_GET_ITEM(consts, 6), r->trimmed);
    if (trim_rule == Py_None)
        trim_rule = NULL;
    PyObject *parts[4];
    Py_ssize_t count = 0;
    if (opener_rule)
        parts[count++] = opener_rule;
    if (r->folded)
        parts[count++] = PyTuple_GET_ITEM(consts, 10);
    if (r->fold_at >= 0)
        parts[count++] = PyTuple_GET_ITEM(consts, 11);
    if (r->entity)
        parts[count++] = PyTuple_GET_ITEM(consts, 9);
    if (trim_rule)
        parts[count++] = trim_rule;
    PyObject *rules = count == 0 ? Py_NewRef(no_rules) : PyTuple_New(count);
    for (Py_ssize_t k = 0; rules != NULL && k < count; k++)
        PyTuple_SET_ITEM(rules, k, Py_NewRef(parts[k]));
    PyObject *start = PyLong_FromSsize_t(p);
    PyObject *end = PyLong_FromSsize_t(r->end);
    PyObject *text = PyUnicode_DecodeASCII((const char *)s + p, r->end - p, NULL);
    PyObject *urn = r->folded ? without_white_space(s + p, r->end - p)
                    : r->fold_at >= 0 ? joined(s, p, r->fold_at, r->fold_to, r->end) : Py_XNewRef(text);
    PyObject *literal = r->lit_end == r->end ? Py_XNewRef(text)
                        : PyUnicode_DecodeASCII((const char *)s + p, r->lit_end - p, NULL);
    PyObject *cand = type->tp_alloc(type, 9);
    if (rules == NULL || start == NULL || end == NULL || text == NULL || urn == NULL || literal == NULL
            || cand == NULL) {
        Py_XDECREF(rules);
        Py_XDECREF(start);
        Py_XDECREF(end);
        Py_XDECREF(text);
        Py_XDECREF(urn);
        Py_XDECREF(literal);
        Py_XDECREF(cand);
        return NULL;
    }
    PyTuple_SET_ITEM(cand, 0, start);
    PyTuple_SET_ITEM(cand, 1, end);
    PyTuple_SET_ITEM(cand, 2, Py_NewRef(form));
    PyTuple_SET_ITEM(cand, 3, Py_NewRef(r->folded || r->fold_at >= 0 ? Py_True : Py_False));
    PyTuple_SET_ITEM(cand, 4, Py_NewRef(r->url ? Py_True : Py_False));
    PyTuple_SET_ITEM(cand, 5, urn);
    PyTuple_SET_ITEM(cand, 6, literal);
    PyTuple_SET_ITEM(cand, 7, text);
    PyTuple_SET_ITEM(cand, 8, rules);
    return cand;
}

/* a StreamContext's state (url.py: pos, and its TokenContext's slots) */
static int
get_int(PyObject *obj, const char *name, Py_ssize_t *out)
{
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (v == NULL)
        return -1;
    *out = PyNumber_AsSsize_t(v, NULL);
    Py_DECREF(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int
get_flag(PyObject *obj, const char *name, int *out)
{
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (v == NULL)
        return -1;
    *out = PyObject_IsTrue(v);
    Py_DECREF(v);
    return *out < 0 ? -1 : 0;
}

static int
stream_load(PyObject *context, Py_ssize_t base, Stream *st)
{
    Py_ssize_t pos, last;
    Token *t = &st->token;
    PyObject *token = PyObject_GetAttrString(context, "token");
    if (token == NULL)
        return -1;
    PyObject *head = PyObject_GetAttrString(token, "head");
    int ok = head != NULL && PyBytes_Check(head) && get_int(context, "pos", &pos) == 0
             && get_int(token, "last", &last) == 0 && get_flag(token, "dslash", &t->dslash) == 0
             && get_flag(token, "query", &t->query) == 0 && get_flag(token, "slash", &t->slash) == 0
             && get_flag(token, "form", &t->form) == 0 && get_int(token, "name_len", &t->name_len) == 0
             && get_int(token, "value_len", &t->value_len) == 0
             && get_flag(token, "name_alpha", &t->name_alpha) == 0 && get_flag(token, "in_value", &t->in_value) == 0;
    if (ok) {
        t->head_len = PyBytes_GET_SIZE(head) < SCHEME_LIMIT ? PyBytes_GET_SIZE(head) : SCHEME_LIMIT;
        memcpy(t->head, PyBytes_AS_STRING(head), (size_t)t->head_len);
        t->last = (int)last;
        st->at = pos - base;
        st->moved = 0;
    }
    else if (!PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "plain_reads: context must be a StreamContext");
    Py_XDECREF(head);
    Py_DECREF(token);
    return ok ? 0 : -1;
}

static int
set_value(PyObject *obj, const char *name, PyObject *v)
{
    if (v == NULL)
        return -1;
    int r = PyObject_SetAttrString(obj, name, v);
    Py_DECREF(v);
    return r;
}

static int
stream_store(PyObject *context, Py_ssize_t base, const Stream *st)
{
    if (!st->moved)
        return 0;
    const Token *t = &st->token;
    PyObject *token = PyObject_GetAttrString(context, "token");
    if (token == NULL)
        return -1;
    int r = set_value(context, "pos", PyLong_FromSsize_t(base + st->at)) < 0
            || set_value(token, "head", PyBytes_FromStringAndSize((const char *)t->head, t->head_len)) < 0
            || set_value(token, "dslash", PyBool_FromLong(t->dslash)) < 0
            || set_value(token, "query", PyBool_FromLong(t->query)) < 0
            || set_value(token, "slash", PyBool_FromLong(t->slash)) < 0
            || set_value(token, "last", PyLong_FromLong(t->last)) < 0
            || set_value(token, "form", PyBool_FromLong(t->form)) < 0
            || set_value(token, "name_len", PyLong_FromSsize_t(t->name_len)) < 0
            || set_value(token, "name_alpha", PyBool_FromLong(t->name_alpha)) < 0
            || set_value(token, "in_value", PyBool_FromLong(t->in_value)) < 0
            || set_value(token, "value_len", PyLong_FromSsize_t(t->value_len)) < 0 ? -1 : 0;
    Py_DECREF(token);
    return r;
}

PyDoc_STRVAR(plain_reads_doc,
"plain_reads($module, buf, positions, i, pos, n, window, table, cap,\n"
"            wrapper_limit, flags, consts, found, context, base, /)\n--\n\n"
"Read the candidates at positions[i:] as extract.fast's read_all reads them,\n"
"appending a Candidate to found for each, while they are plain ones; stop at\n"
"the first position read_all would read otherwise.  Returns (index of that\n"
"position or len(positions), pos).\n"
"table holds 256 bytes of class flags, flags the Reading options, consts\n"
"the objects a Candidate is made of; context (a StreamContext at absolute\n"
"offset base of buf[0]) is read and left as read_all leaves it.");

static PyObject *
plain_reads(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t i, pos, n, window, cap, wrapper_limit;
    Py_buffer view, table_view;

    if (nargs != 14) {
        PyErr_Format(PyExc_TypeError, "plain_reads expected 14 arguments, got %zd", nargs);
        return NULL;
    }
    PyObject *positions = args[1], *consts = args[10], *found = args[11], *context = args[12];
    Py_ssize_t base;
    if (index_arg(args[13], &base) < 0)
        return NULL;
    if (!PyList_Check(positions) || !PyList_Check(found) || !PyTuple_Check(consts) || PyTuple_GET_SIZE(consts) != 12
            || !PyType_Check(PyTuple_GET_ITEM(consts, 0))
            || !PyType_IsSubtype((PyTypeObject *)PyTuple_GET_ITEM(consts, 0), &PyTuple_Type)
            || !PyTuple_Check(PyTuple_GET_ITEM(consts, 6)) || PyTuple_GET_SIZE(PyTuple_GET_ITEM(consts, 6)) != 256) {
        PyErr_SetString(PyExc_TypeError, "plain_reads: positions and found must be lists, consts the 12 constants");
        return NULL;
    }
    if (index_arg(args[2], &i) < 0 || index_arg(args[3], &pos) < 0 || index_arg(args[4], &n) < 0
            || index_arg(args[5], &window) < 0 || index_arg(args[7], &cap) < 0
            || index_arg(args[8], &wrapper_limit) < 0)
        return NULL;
    long flags = PyLong_AsLong(args[9]);
    if (flags == -1 && PyErr_Occurred())
        return NULL;
    if (i < 0 || n < 0 || window < 0) {
        PyErr_SetString(PyExc_ValueError, "plain_reads: i, n and window must not be negative");
        return NULL;
    }
    if (PyObject_GetBuffer(args[6], &table_view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (table_view.len != 256) {
        PyBuffer_Release(&table_view);
        PyErr_SetString(PyExc_ValueError, "plain_reads: table must hold 256 bytes");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&table_view);
        return NULL;
    }
    Stream st;
    if (stream_load(context, base, &st) < 0) {
        PyBuffer_Release(&view);
        PyBuffer_Release(&table_view);
        return NULL;
    }
    PyObject *no_rules = PyTuple_New(0);
    PyObject *result = NULL;
    if (no_rules == NULL)
        goto done;
    const unsigned char *s = view.buf;
    const unsigned char *table = table_view.buf;
    if (n > view.len)
        n = view.len;
    Py_ssize_t count = PyList_GET_SIZE(positions);
    for (; i < count; i++) {
        Py_ssize_t p = PyNumber_AsSsize_t(PyList_GET_ITEM(positions, i), NULL);
        if (p == -1 && PyErr_Occurred())
            goto done;
        if (p < pos)
            continue;  /* inside the previous candidate */
        /* read_all reads up to hi: a window past p, or the end of the input */
        Py_ssize_t hi = p > n - window ? n : p + window;
        Read r;
        int read = p <= 0 || p + 4 > hi ? 0 : read_one(s, p, hi, table, cap, wrapper_limit, flags, &st, &r);
        if (read == 0)
            break;
        if (read == 2) {
            pos = p + 1;
            continue;
        }
        PyObject *cand = new_candidate(consts, no_rules, s, p, &r);
        if (cand == NULL || PyList_Append(found, cand) < 0) {
            Py_XDECREF(cand);
            goto done;
        }
        Py_DECREF(cand);
        pos = r.end;
    }
    if (stream_store(context, base, &st) == 0)
        result = Py_BuildValue("(nn)", i, pos);
done:
    Py_XDECREF(no_rules);
    PyBuffer_Release(&view);
    PyBuffer_Release(&table_view);
    return result;
}

/* ------------------------------------------------------------------------
 * place_rows: scanner.py ByteScanner._hits and judge.py UrnJudge.rows in
 * one loop -- each candidate placed (offsets, line, column, context) and
 * made a Hit with the judged fields its URN has in the judge's cache; it
 * stops at the first URN not there, for the Python code to judge.
 * ---------------------------------------------------------------------- */

/* the line breaks in s[a:b] (LF, CR and CRLF one each when cr, else LF)
   and where the last one ends (-1: none) */
static Py_ssize_t
breaks_in(const unsigned char *s, Py_ssize_t a, Py_ssize_t b, int cr, Py_ssize_t *last_end)
{
    Py_ssize_t count = line_breaks(s + a, b - a, cr);
    *last_end = -1;
    if (count)
        for (Py_ssize_t k = b - 1; k >= a; k--)
            if (s[k] == '\n' || (cr && s[k] == '\r')) {
                *last_end = k + 1;
                break;
            }
    return count;
}

static int
ssize_item(PyObject *tuple, Py_ssize_t k, Py_ssize_t *out)
{
    *out = PyNumber_AsSsize_t(PyTuple_GET_ITEM(tuple, k), PyExc_OverflowError);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

PyDoc_STRVAR(place_rows_doc,
"place_rows($module, buf, found, i, base, pos, line, line_start, has_cr, source,\n"
"           document, size, tails, hit, hits, /)\n--\n\n"
"Append to hits a Hit for each Candidate of found[i:], placed as\n"
"ByteScanner._hits places it (buf[0] at absolute offset base, lines counted\n"
"up to pos: line, line_start) with the judged fields tails (a dict) holds\n"
"for its URN; stop at the first URN tails lacks.  Returns (index of that\n"
"candidate or len(found), pos, line, line_start).");

static PyObject *
place_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t i, base, pos, line, line_start, size;
    Py_buffer view;

    if (nargs != 14) {
        PyErr_Format(PyExc_TypeError, "place_rows expected 14 arguments, got %zd", nargs);
        return NULL;
    }
    PyObject *found = args[1], *source = args[8], *document = args[9], *tails = args[11], *hits = args[13];
    PyTypeObject *hit_type = (PyTypeObject *)args[12];
    if (!PyList_Check(found) || !PyList_Check(hits) || !PyDict_Check(tails) || !PyType_Check(args[12])
            || !PyType_IsSubtype(hit_type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "place_rows: found and hits must be lists, tails a dict, hit a tuple type");
        return NULL;
    }
    if (index_arg(args[2], &i) < 0 || index_arg(args[3], &base) < 0 || index_arg(args[4], &pos) < 0
            || index_arg(args[5], &line) < 0 || index_arg(args[6], &line_start) < 0
            || index_arg(args[10], &size) < 0)
        return NULL;
    int cr = PyObject_IsTrue(args[7]);
    if (cr < 0)
        return NULL;
    if (i < 0 || size < 0 || pos < base) {
        PyErr_SetString(PyExc_ValueError, "place_rows: i and size must not be negative, nor pos before base");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const unsigned char *s = view.buf;
    Py_ssize_t n = view.len, count = PyList_GET_SIZE(found), at = pos - base;
    PyObject *result = NULL;
    for (; i < count; i++) {
        PyObject *cand = PyList_GET_ITEM(found, i);
        Py_ssize_t start, end;
        if (!PyTuple_Check(cand) || PyTuple_GET_SIZE(cand) != 9) {
            PyErr_SetString(PyExc_TypeError, "place_rows: found holds Candidate tuples");
            goto done;
        }
        if (ssize_item(cand, 0, &start) < 0 || ssize_item(cand, 1, &end) < 0)
            goto done;
        if (!(0 <= start && start <= end && end <= n)) {
            PyErr_SetString(PyExc_ValueError, "place_rows: a candidate outside the buffer");
            goto done;
        }
        PyObject *tail = PyDict_GetItemWithError(tails, PyTuple_GET_ITEM(cand, 5));
        if (tail == NULL) {
            if (PyErr_Occurred())
                goto done;
            break;  /* not judged yet */
        }
        if (!PyTuple_Check(tail)) {
            PyErr_SetString(PyExc_TypeError, "place_rows: tails maps a URN to a tuple");
            goto done;
        }
        if (start > at) {  /* _Lines.advance */
            Py_ssize_t last_end, breaks = breaks_in(s, at, start, cr, &last_end);
            if (breaks) {
                line += breaks;
                line_start = base + last_end;
            }
            at = start;
        }
        PyObject *context = size ? snippet_of(s, n, start, end, size, 0) : Py_NewRef(Py_None);
        Py_ssize_t tail_len = PyTuple_GET_SIZE(tail);
        PyObject *hit = hit_type->tp_alloc(hit_type, 14 + tail_len);
        PyObject *fields[6] = {PyLong_FromSsize_t(base + start), PyLong_FromSsize_t(base + end),
                               PyLong_FromSsize_t(line), PyLong_FromSsize_t(base + start - line_start + 1),
                               context, hit};
        int failed = 0;
        for (int k = 0; k < 6; k++)
            failed |= fields[k] == NULL;
        if (failed) {
            for (int k = 0; k < 6; k++)
                Py_XDECREF(fields[k]);
            goto done;
        }
        /* (source, document, start, end, line, column, form, folded, embedded,
           raw, urn, literal, rules, context) + the judged fields */
        PyTuple_SET_ITEM(hit, 0, Py_NewRef(source));
        PyTuple_SET_ITEM(hit, 1, Py_NewRef(document));
        PyTuple_SET_ITEM(hit, 2, fields[0]);
        PyTuple_SET_ITEM(hit, 3, fields[1]);
        PyTuple_SET_ITEM(hit, 4, fields[2]);
        PyTuple_SET_ITEM(hit, 5, fields[3]);
        PyTuple_SET_ITEM(hit, 6, Py_NewRef(PyTuple_GET_ITEM(cand, 2)));
        PyTuple_SET_ITEM(hit, 7, Py_NewRef(PyTuple_GET_ITEM(cand, 3)));
        PyTuple_SET_ITEM(hit, 8, Py_NewRef(PyTuple_GET_ITEM(cand, 4)));
        PyTuple_SET_ITEM(hit, 9, Py_NewRef(PyTuple_GET_ITEM(cand, 7)));
        PyTuple_SET_ITEM(hit, 10, Py_NewRef(PyTuple_GET_ITEM(cand, 5)));
        PyTuple_SET_ITEM(hit, 11, Py_NewRef(PyTuple_GET_ITEM(cand, 6)));
        PyTuple_SET_ITEM(hit, 12, Py_NewRef(PyTuple_GET_ITEM(cand, 8)));
        PyTuple_SET_ITEM(hit, 13, context);
        for (Py_ssize_t k = 0; k < tail_len; k++)
            PyTuple_SET_ITEM(hit, 14 + k, Py_NewRef(PyTuple_GET_ITEM(tail, k)));
        /* A Hit's fields are values made before it -- str, int, bool, None,
           tuples of them, Finding records and enum members (shared constants
           that never hold a row) -- none of which can come to refer to it,
           so it is never part of a reference cycle: like a tuple of
           untracked items (which the collector untracks when it meets one),
           it is left out of the collector's passes, which a scan dense with
           hits otherwise spends 7 % of its time in. */
        PyObject_GC_UnTrack(hit);
        int appended = PyList_Append(hits, hit);
        Py_DECREF(hit);
        if (appended < 0)
            goto done;
    }
    result = Py_BuildValue("(nnnn)", i, base + at > pos ? base + at : pos, line, line_start);
done:
    PyBuffer_Release(&view);
    return result;
}

/* ---- columns of the index (urnscan/sinks/arrays.py) -------------------- */

/* the length of a row of Arrow's int32 offsets; the caller checks bounds */
static int32_t
offset_at(const unsigned char *offsets, Py_ssize_t i)
{
    int32_t v;
    memcpy(&v, offsets + 4 * i, 4);
    return v;
}

static int
too_long(long long total)
{
    if (total <= INT32_MAX)
        return 0;
    PyErr_SetString(PyExc_OverflowError, "more than 2**31 - 1 bytes or items in one column");
    return 1;
}

PyDoc_STRVAR(int32_offsets_doc,
"int32_offsets($module, lengths, /)\n--\n\n"
"The int32 offsets (native order, len(lengths) + 1 of them) of consecutive\n"
"pieces of the given lengths (see urnscan.sinks.arrays.int32_offsets_py).");

static PyObject *
int32_offsets(PyObject *module, PyObject *lengths)
{
    PyObject *seq = PySequence_Fast(lengths, "lengths must be a sequence");
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (n + 1) * 4);
    if (out == NULL)
        goto fail;
    char *o = PyBytes_AS_STRING(out);
    long long total = 0;
    int32_t v = 0;
    memcpy(o, &v, 4);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_Check(items[i])) {  /* read without running Python code */
            PyErr_SetString(PyExc_TypeError, "lengths must be int");
            goto fail;
        }
        long long length = PyLong_AsLongLong(items[i]);
        if (length == -1 && PyErr_Occurred())
            goto fail;
        if (length < 0) {
            PyErr_SetString(PyExc_ValueError, "a length is negative");
            goto fail;
        }
        total += length;
        if (too_long(total))
            goto fail;
        v = (int32_t)total;
        memcpy(o + 4 * (i + 1), &v, 4);
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_XDECREF(out);
    Py_DECREF(seq);
    return NULL;
}

PyDoc_STRVAR(string_buffers_doc,
"string_buffers($module, values, /)\n--\n\n"
"(int32 offsets, UTF-8 data) of a list of str; UnicodeEncodeError for a\n"
"lone surrogate (see urnscan.sinks.arrays.string_buffers_py).");

static PyObject *
string_buffers(PyObject *module, PyObject *values)
{
    if (!PyList_Check(values)) {
        PyErr_SetString(PyExc_TypeError, "values must be a list of str");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(values);
    PyObject *offsets = PyBytes_FromStringAndSize(NULL, (n + 1) * 4);
    if (offsets == NULL)
        return NULL;
    char *o = PyBytes_AS_STRING(offsets);
    long long total = 0;
    int32_t v = 0;
    memcpy(o, &v, 4);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(values, i);
        Py_ssize_t size;
        if (!PyUnicode_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "values must be a list of str");
            goto fail;
        }
        if (PyUnicode_IS_ASCII(item))
            size = PyUnicode_GET_LENGTH(item);
        else if (PyUnicode_AsUTF8AndSize(item, &size) == NULL)
            goto fail;
        total += size;
        if (too_long(total))
            goto fail;
        v = (int32_t)total;
        memcpy(o + 4 * (i + 1), &v, 4);
    }
    PyObject *data = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (data == NULL)
        goto fail;
    char *d = PyBytes_AS_STRING(data);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(values, i);
        Py_ssize_t size;
        const char *utf8;
        if (PyUnicode_IS_ASCII(item)) {
            size = PyUnicode_GET_LENGTH(item);
            utf8 = (const char *)PyUnicode_DATA(item);
        } else {
            utf8 = PyUnicode_AsUTF8AndSize(item, &size);  /* made above: cached in the str */
        }
        memcpy(d, utf8, (size_t)size);
        d += size;
    }
    PyObject *pair = PyTuple_Pack(2, offsets, data);
    Py_DECREF(offsets);
    Py_DECREF(data);
    return pair;
fail:
    Py_DECREF(offsets);
    return NULL;
}

/* the row number codes[i], checked against rows */
static int
row_at(PyObject **codes, Py_ssize_t i, Py_ssize_t rows, Py_ssize_t *out)
{
    /* an int's value is read without running Python code, so the list
       of codes cannot change under the loop */
    if (!PyLong_Check(codes[i])) {
        PyErr_SetString(PyExc_TypeError, "row numbers must be int");
        return -1;
    }
    Py_ssize_t c = PyLong_AsSsize_t(codes[i]);
    if (c == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        c = -1;
    }
    if (c < 0 || c >= rows) {
        PyErr_SetString(PyExc_IndexError, "row number out of range");
        return -1;
    }
    *out = c;
    return 0;
}

/* a row width: a positive int */
static int
width_arg(PyObject *arg, Py_ssize_t *width)
{
    if (index_arg(arg, width) < 0)
        return -1;
    if (*width <= 0) {
        PyErr_SetString(PyExc_ValueError, "width must be positive");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(take_fixed_doc,
"take_fixed($module, data, width, codes, /)\n--\n\n"
"The rows codes (a sequence of row numbers) of data, rows of width bytes\n"
"each (see urnscan.sinks.arrays.take_fixed_py).");

static PyObject *
take_fixed(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "take_fixed takes data, width and codes");
        return NULL;
    }
    Py_ssize_t width;
    if (width_arg(args[1], &width) < 0)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *out = NULL;
    PyObject *seq = PySequence_Fast(args[2], "codes must be a sequence");
    if (seq == NULL)
        goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), rows = view.len / width, c;
    PyObject **codes = PySequence_Fast_ITEMS(seq);
    if (n > PY_SSIZE_T_MAX / width) {
        PyErr_NoMemory();
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, n * width);
    if (out == NULL)
        goto done;
    char *o = PyBytes_AS_STRING(out);
    const char *d = view.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (row_at(codes, i, rows, &c) < 0) {
            Py_CLEAR(out);
            goto done;
        }
        memcpy(o + i * width, d + c * width, (size_t)width);
    }
done:
    Py_XDECREF(seq);
    PyBuffer_Release(&view);
    return out;
}

PyDoc_STRVAR(take_segments_doc,
"take_segments($module, offsets, data, width, codes, /)\n--\n\n"
"(int32 offsets, data) of the rows codes of a variable-length column: its\n"
"int32 offsets (one more than its rows) and data, items of width bytes\n"
"(see urnscan.sinks.arrays.take_segments_py).");

static PyObject *
take_segments(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "take_segments takes offsets, data, width and codes");
        return NULL;
    }
    Py_ssize_t width;
    if (width_arg(args[2], &width) < 0)
        return NULL;
    Py_buffer ov, dv;
    if (PyObject_GetBuffer(args[0], &ov, PyBUF_SIMPLE) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[1], &dv, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&ov);
        return NULL;
    }
    PyObject *result = NULL, *offsets = NULL, *data = NULL;
    PyObject *seq = PySequence_Fast(args[3], "codes must be a sequence");
    if (seq == NULL)
        goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), rows = ov.len / 4 - 1, items = dv.len / width, c;
    PyObject **codes = PySequence_Fast_ITEMS(seq);
    const unsigned char *in = ov.buf;
    if (rows < 0)
        rows = 0;
    offsets = PyBytes_FromStringAndSize(NULL, (n + 1) * 4);
    if (offsets == NULL)
        goto done;
    char *o = PyBytes_AS_STRING(offsets);
    long long total = 0;
    int32_t v = 0;
    memcpy(o, &v, 4);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (row_at(codes, i, rows, &c) < 0)
            goto done;
        int32_t a = offset_at(in, c), b = offset_at(in, c + 1);
        if (a < 0 || b < a || b > items) {
            PyErr_SetString(PyExc_ValueError, "offsets outside the data");
            goto done;
        }
        total += b - a;
        if (too_long(total))
            goto done;
        v = (int32_t)total;
        memcpy(o + 4 * (i + 1), &v, 4);
    }
    data = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(total * width));
    if (data == NULL)
        goto done;
    char *d = PyBytes_AS_STRING(data);
    const char *src = dv.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        c = PyLong_AsSsize_t(codes[i]);  /* an int in range, checked above */
        int32_t a = offset_at(in, c), b = offset_at(in, c + 1);
        memcpy(d, src + (Py_ssize_t)a * width, (size_t)(b - a) * width);
        d += (Py_ssize_t)(b - a) * width;
    }
    result = PyTuple_Pack(2, offsets, data);
done:
    Py_XDECREF(offsets);
    Py_XDECREF(data);
    Py_XDECREF(seq);
    PyBuffer_Release(&ov);
    PyBuffer_Release(&dv);
    return result;
}

/* ---- a directory's entries (urnscan/sources/listing.py) ---------------- */

#ifdef HAVE_LIST_ENTRIES

typedef struct {
    char *name;
    size_t len;
    unsigned char type;  /* d_type */
    int stated;          /* st holds the entry's lstat */
    struct stat st;
} DirItem;

static void
free_items(DirItem *items, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(items[i].name);
    free(items);
}

/* the entries of d but "." and "..", each lstat-ed (through the descriptor
   of d) when it is not known from the listing to be a link or a special
   file; runs without the GIL.  0, or an errno value. */
static int
read_items(DIR *d, DirItem **out, size_t *out_count)
{
    size_t count = 0, room = 0;
    DirItem *items = NULL;
    int error = 0;
    for (;;) {
        errno = 0;
        struct dirent *ent = readdir(d);
        if (ent == NULL) {
            error = errno;
            break;
        }
        const char *name = ent->d_name;
        if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0)))
            continue;
        if (count == room) {
            size_t bigger = room ? room * 2 : 64;
            DirItem *grown = realloc(items, bigger * sizeof *items);
            if (grown == NULL) {
                error = ENOMEM;
                break;
            }
            items = grown;
            room = bigger;
        }
        DirItem *item = &items[count];
        item->len = strlen(name);
        item->name = malloc(item->len + 1);
        if (item->name == NULL) {
            error = ENOMEM;
            break;
        }
        memcpy(item->name, name, item->len + 1);
        item->type = ent->d_type;
        item->stated = 0;
        count++;
    }
    if (!error) {
        int fd = dirfd(d);
        for (size_t i = 0; i < count; i++) {
            unsigned char t = items[i].type;
            if (t == DT_REG || t == DT_DIR || t == DT_UNKNOWN)
                items[i].stated = fstatat(fd, items[i].name, &items[i].st, AT_SYMLINK_NOFOLLOW) == 0;
        }
    }
    if (error) {
        free_items(items, count);
        return error;
    }
    *out = items;
    *out_count = count;
    return 0;
}

/* stat_type(st_mode, st_size, st_uid, st_dev, st_ino) */
static PyObject *
new_stat(PyTypeObject *stat_type, const struct stat *st)
{
    PyObject *fields[5] = {PyLong_FromUnsignedLong((unsigned long)st->st_mode), PyLong_FromLongLong((long long)st->st_size),
                           PyLong_FromUnsignedLong((unsigned long)st->st_uid),
                           PyLong_FromUnsignedLongLong((unsigned long long)st->st_dev),
                           PyLong_FromUnsignedLongLong((unsigned long long)st->st_ino)};
    PyObject *result = NULL;
    for (int k = 0; k < 5; k++)
        if (fields[k] == NULL)
            goto done;
    result = stat_type->tp_alloc(stat_type, 5);
    if (result == NULL)
        goto done;
    for (int k = 0; k < 5; k++) {
        PyTuple_SET_ITEM(result, k, fields[k]);
        fields[k] = NULL;
    }
done:
    for (int k = 0; k < 5; k++)
        Py_XDECREF(fields[k]);
    return result;
}

PyDoc_STRVAR(list_entries_doc,
"list_entries($module, where, stat_type, /)\n--\n\n"
"The entries of a directory (where: a descriptor of it, or its path) as\n"
"(name, stat or None, is_link) sorted by name (see\n"
"urnscan.sources.listing.list_entries_py).");

static PyObject *
list_entries(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "list_entries takes where and stat_type");
        return NULL;
    }
    PyObject *where = args[0];
    if (!PyType_Check(args[1]) || !PyType_IsSubtype((PyTypeObject *)args[1], &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "list_entries: stat_type must be a tuple type");
        return NULL;
    }
    PyTypeObject *stat_type = (PyTypeObject *)args[1];
    DIR *d = NULL;
    PyObject *path = NULL;
    if (PyLong_Check(where)) {
        long given = PyLong_AsLong(where);
        if (given == -1 && PyErr_Occurred())
            return NULL;
        if (given < 0 || given > INT_MAX) {
            PyErr_SetString(PyExc_ValueError, "list_entries: not a file descriptor");
            return NULL;
        }
        int fd = fcntl((int)given, F_DUPFD_CLOEXEC, 0);
        if (fd >= 0) {
            d = fdopendir(fd);
            if (d == NULL) {
                int saved = errno;
                close(fd);
                errno = saved;
            }
        }
    }
    else {
        if (!PyUnicode_FSConverter(where, &path))
            return NULL;
        if ((Py_ssize_t)strlen(PyBytes_AS_STRING(path)) != PyBytes_GET_SIZE(path)) {
            Py_DECREF(path);
            PyErr_SetString(PyExc_ValueError, "embedded null byte");
            return NULL;
        }
        Py_BEGIN_ALLOW_THREADS
        d = opendir(PyBytes_AS_STRING(path));
        Py_END_ALLOW_THREADS
        Py_DECREF(path);
    }
    if (d == NULL)
        return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, where);
    DirItem *items = NULL;
    size_t count = 0;
    int error;
    Py_BEGIN_ALLOW_THREADS
    error = read_items(d, &items, &count);
    rewinddir(d);  /* a descriptor given shares its position with ours */
    closedir(d);
    Py_END_ALLOW_THREADS
    if (error) {
        errno = error;
        return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, where);
    }
    PyObject *entries = PyList_New((Py_ssize_t)count);
    if (entries == NULL)
        goto fail;
    for (size_t i = 0; i < count; i++) {
        DirItem *item = &items[i];
        int plain = item->stated && (S_ISREG(item->st.st_mode) || S_ISDIR(item->st.st_mode));
        int link = item->type == DT_LNK || (item->stated && S_ISLNK(item->st.st_mode));
        PyObject *name = PyUnicode_DecodeFSDefaultAndSize(item->name, (Py_ssize_t)item->len);
        PyObject *st = plain ? new_stat(stat_type, &item->st) : Py_NewRef(Py_None);
        PyObject *entry = name && st ? PyTuple_Pack(3, name, st, link ? Py_True : Py_False) : NULL;
        Py_XDECREF(name);
        Py_XDECREF(st);
        if (entry == NULL)
            goto fail;
        PyList_SET_ITEM(entries, (Py_ssize_t)i, entry);
    }
    free_items(items, count);
    if (PyList_Sort(entries) < 0) {  /* by name: a directory's names are distinct */
        Py_DECREF(entries);
        return NULL;
    }
    return entries;
fail:
    Py_XDECREF(entries);
    free_items(items, count);
    return NULL;
}
#endif /* HAVE_LIST_ENTRIES */

/* ---- rows of hits to columns (urnscan/sinks/schema.py) ----------------- */

/* rows: a list of tuples, each at least `need` items long */
static PyObject *
tuple_rows(PyObject *rows, Py_ssize_t need, const char *name)
{
    if (!PyList_Check(rows)) {
        PyErr_Format(PyExc_TypeError, "%s: rows must be a list of tuples", name);
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(rows);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = PyList_GET_ITEM(rows, i);
        if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) < need) {
            PyErr_Format(PyExc_TypeError, "%s: rows must be tuples of at least %zd items", name, need);
            return NULL;
        }
    }
    return rows;
}

PyDoc_STRVAR(transpose_doc,
"transpose($module, rows, stop, /)\n--\n\n"
"The first stop columns of rows (a list of tuples) as a list of lists (see\n"
"urnscan.sinks.arrays.transpose_py).");

static PyObject *
transpose(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t stop;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "transpose takes rows and stop");
        return NULL;
    }
    if (index_arg(args[1], &stop) < 0)
        return NULL;
    if (stop < 0) {
        PyErr_SetString(PyExc_ValueError, "transpose: stop must not be negative");
        return NULL;
    }
    PyObject *rows = tuple_rows(args[0], stop, "transpose");
    if (rows == NULL)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(rows);
    PyObject *columns = PyList_New(stop);
    if (columns == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < stop; k++) {
        PyObject *column = PyList_New(n);
        if (column == NULL) {
            Py_DECREF(columns);
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++)
            PyList_SET_ITEM(column, i, Py_NewRef(PyTuple_GET_ITEM(PyList_GET_ITEM(rows, i), k)));
        PyList_SET_ITEM(columns, k, column);
    }
    return columns;
}

/* whether rows a and b hold equal items from start on (same length) */
static int
same_tail(PyObject *a, PyObject *b, Py_ssize_t start)
{
    Py_ssize_t n = PyTuple_GET_SIZE(a);
    if (PyTuple_GET_SIZE(b) != n)
        return 0;
    for (Py_ssize_t k = start; k < n; k++) {
        int eq = PyObject_RichCompareBool(PyTuple_GET_ITEM(a, k), PyTuple_GET_ITEM(b, k), Py_EQ);
        if (eq <= 0)
            return eq;
    }
    return 1;
}

PyDoc_STRVAR(factorize_tails_doc,
"factorize_tails($module, rows, key, start, /)\n--\n\n"
"The distinct pairs (row[key], row[start:]) of rows (a list of tuples) in\n"
"order of first appearance, as the list of their tails, and the index in it\n"
"of each row (a list), or None when every row is distinct (see\n"
"urnscan.sinks.arrays.factorize_tails_py).");

static PyObject *
factorize_tails(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t key, start;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "factorize_tails takes rows, key and start");
        return NULL;
    }
    if (index_arg(args[1], &key) < 0 || index_arg(args[2], &start) < 0)
        return NULL;
    if (key < 0 || start < 0) {
        PyErr_SetString(PyExc_ValueError, "factorize_tails: key and start must not be negative");
        return NULL;
    }
    if (tuple_rows(args[0], (key >= start ? key : start - 1) + 1, "factorize_tails") == NULL)
        return NULL;
    /* a copy: comparing items may run Python code, which may change the list */
    PyObject *rows = PyList_GetSlice(args[0], 0, PyList_GET_SIZE(args[0]));
    if (rows == NULL)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(rows), groups = 0;
    /* first[key] = the first group of that key; later groups of the same
       key (another tail) are chained through next_group */
    PyObject *first = PyDict_New(), *codes = PyList_New(n), *result = NULL;
    Py_ssize_t *representative = PyMem_New(Py_ssize_t, n ? n : 1), *next_group = PyMem_New(Py_ssize_t, n ? n : 1);
    if (first == NULL || codes == NULL || representative == NULL || next_group == NULL) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PyList_GET_ITEM(rows, i);
        PyObject *known = PyDict_GetItemWithError(first, PyTuple_GET_ITEM(row, key));
        Py_ssize_t g = -1, last = -1;
        if (known != NULL) {
            for (Py_ssize_t c = PyLong_AsSsize_t(known); c >= 0; c = next_group[c]) {
                int same = same_tail(PyList_GET_ITEM(rows, representative[c]), row, start);
                if (same < 0)
                    goto done;
                if (same) {
                    g = c;
                    break;
                }
                last = c;
            }
        } else if (PyErr_Occurred()) {
            goto done;
        }
        if (g < 0) {  /* a new pair */
            g = groups++;
            representative[g] = i;
            next_group[g] = -1;
            if (last >= 0) {
                next_group[last] = g;
            } else {
                PyObject *number = PyLong_FromSsize_t(g);
                int failed = number == NULL || PyDict_SetItem(first, PyTuple_GET_ITEM(row, key), number) < 0;
                Py_XDECREF(number);
                if (failed)
                    goto done;
            }
        }
        PyObject *code = PyLong_FromSsize_t(g);
        if (code == NULL)
            goto done;
        PyList_SET_ITEM(codes, i, code);
    }
    PyObject *tails = PyList_New(groups);
    if (tails == NULL)
        goto done;
    for (Py_ssize_t g = 0; g < groups; g++) {
        PyObject *row = PyList_GET_ITEM(rows, representative[g]);
        PyObject *tail = PyTuple_GetSlice(row, start, PyTuple_GET_SIZE(row));
        if (tail == NULL) {
            Py_DECREF(tails);
            goto done;
        }
        PyList_SET_ITEM(tails, g, tail);
    }
    if (groups == n) {
        result = Py_BuildValue("(NO)", tails, Py_None);
    } else {
        result = Py_BuildValue("(NO)", tails, codes);
    }
done:
    Py_DECREF(rows);
    Py_XDECREF(first);
    Py_XDECREF(codes);
    PyMem_Free(representative);
    PyMem_Free(next_group);
    return result;
}

static PyMethodDef accel_methods[] = {
    {"urn_positions", (PyCFunction)(void (*)(void))urn_positions, METH_FASTCALL, urn_positions_doc},
    {"looks_binary", (PyCFunction)looks_binary, METH_O, looks_binary_doc},
    {"context_snippet", (PyCFunction)(void (*)(void))context_snippet, METH_FASTCALL, context_snippet_doc},
    {"count_breaks", (PyCFunction)(void (*)(void))count_breaks, METH_VARARGS | METH_KEYWORDS, count_breaks_doc},
    {"next_marked_urn", (PyCFunction)(void (*)(void))next_marked_urn, METH_FASTCALL, next_marked_urn_doc},
    {"plain_reads", (PyCFunction)(void (*)(void))plain_reads, METH_FASTCALL, plain_reads_doc},
    {"place_rows", (PyCFunction)(void (*)(void))place_rows, METH_FASTCALL, place_rows_doc},
    {"int32_offsets", (PyCFunction)int32_offsets, METH_O, int32_offsets_doc},
    {"string_buffers", (PyCFunction)string_buffers, METH_O, string_buffers_doc},
#ifdef HAVE_LIST_ENTRIES
    {"list_entries", (PyCFunction)(void (*)(void))list_entries, METH_FASTCALL, list_entries_doc},
    {"plain_file_triage", (PyCFunction)(void (*)(void))plain_file_triage, METH_FASTCALL, plain_file_triage_doc},
#endif
    {"transpose", (PyCFunction)(void (*)(void))transpose, METH_FASTCALL, transpose_doc},
    {"factorize_tails", (PyCFunction)(void (*)(void))factorize_tails, METH_FASTCALL, factorize_tails_doc},
    {"take_fixed", (PyCFunction)(void (*)(void))take_fixed, METH_FASTCALL, take_fixed_doc},
    {"take_segments", (PyCFunction)(void (*)(void))take_segments, METH_FASTCALL, take_segments_doc},
    {NULL, NULL, 0, NULL},
};

static int
accel_exec(PyObject *module)
{
    init_tables();
    PyObject *boundary = PyBytes_FromString(BOUNDARY_CHARS);
    if (boundary == NULL)
        return -1;
    int r = PyModule_AddObjectRef(module, "BOUNDARY_BYTES", boundary);
    Py_DECREF(boundary);
    return r;
}

static PyModuleDef_Slot accel_slots[] = {
    {Py_mod_exec, accel_exec},
    {0, NULL},
};

static struct PyModuleDef accel_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "urnscan._accel",
    .m_doc = "Compiled byte loops of the scanner (see urnscan.accel).",
    .m_size = 0,
    .m_methods = accel_methods,
    .m_slots = accel_slots,
};

PyMODINIT_FUNC
PyInit__accel(void)
{
    return PyModuleDef_Init(&accel_module);
}
