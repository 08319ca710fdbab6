/*
 * Compiled versions of the scanner's byte loops.
 *
 * Each function here has a pure-Python reference of the same name that
 * defines its behaviour (urnscan/scanner.py, urnscan/sources/reader.py);
 * urnscan/accel.py picks this module when it was built.  The tests compare
 * the two on generated and real input, and build this file under
 * AddressSanitizer.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* extract/chars.py: BOUNDARY_BYTES = ALNUM | "+-." ; a "urn:" after one of
   them is part of a longer word ("return:", "x.urn:") */
#define ALNUM_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#define BOUNDARY_CHARS ALNUM_CHARS "+-."

/* sources/reader.py: NUL counts alone; the suspicious bytes are C0 controls
   other than TAB, LF, VT, FF, CR and ESC, plus DEL */
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

/* "urn:" (ASCII case folded) at p, at a token boundary, followed by a letter
   or digit; the caller has checked the four bytes are inside the buffer */
static int
keep_at(const unsigned char *s, Py_ssize_t n, Py_ssize_t p)
{
    if (p == 0)
        return n > 4 && is_alnum[s[4]];
    return !is_boundary[s[p - 1]] && (p + 4 >= n || is_alnum[s[p + 4]]);
}

PyDoc_STRVAR(urn_positions_doc,
"urn_positions($module, buf, start, stop, /)\n--\n\n"
"Offsets p in [start, stop) where buf[p:p+4] is \"urn:\" in any case, at a\n"
"token boundary and followed by a letter or digit (see\n"
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
    /* every ":" at index >= start + 3 closes a possible "urn:"; glibc's
       memchr compares 16 or 32 bytes an instruction */
    Py_ssize_t i = start + 3;
    while (i < end) {
        const unsigned char *q = memchr(s + i, ':', (size_t)(end - i));
        if (q == NULL)
            break;
        Py_ssize_t c = q - s;
        if ((s[c - 1] | 0x20) == 'n' && (s[c - 2] | 0x20) == 'r' && (s[c - 3] | 0x20) == 'u'
                && keep_at(s, n, c - 3) && append_offset(out, c - 3) < 0) {
            Py_CLEAR(out);
            goto done;
        }
        i = c + 1;
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

static PyObject *
looks_binary(PyObject *module, PyObject *block)
{
    Py_buffer view;
    if (PyObject_GetBuffer(block, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const unsigned char *s = view.buf;
    Py_ssize_t n = view.len < BINARY_BLOCK_SIZE ? view.len : BINARY_BLOCK_SIZE;
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
            block_suspicious += ((c < 0x20) & ((unsigned char)(c - 9) > 4) & (c != 27)) | (c == 0x7F);
        }
        nul += block_nul;
        suspicious += block_suspicious;
    }
    PyBuffer_Release(&view);
    if (nul >= 2 && nul * 1000 > n)
        Py_RETURN_TRUE;
    return PyBool_FromLong(suspicious >= 2 && suspicious * 20 > n);
}

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
    const unsigned char *s = (const unsigned char *)view.buf + a;
    Py_ssize_t breaks = count_byte(s, n, '\n');
    if (may_have_cr) {
        Py_ssize_t cr = count_byte(s, n, '\r');
        if (cr)
            breaks += cr - count_crlf(s, n);
    }
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
    const unsigned char *s = view.buf;
    Py_ssize_t n = view.len;

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

    PyObject *out = NULL;
    char *text = PyMem_Malloc((size_t)(before_len + mid_len + after_len) + 1);
    if (text == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* runs of white space become one space; spaces at both ends go */
    Py_ssize_t len = 0;
    const struct { Py_ssize_t at, len; } parts[3] = {
        {before_at, before_len}, {mid_at, mid_len}, {after_at, after_len}};
    for (int part = 0; part < 3; part++) {
        const unsigned char *p = s + parts[part].at;
        for (Py_ssize_t i = 0; i < parts[part].len; i++) {
            if (!is_space(p[i]))
                text[len++] = (char)p[i];
            else if (len > 0 && text[len - 1] != ' ')
                text[len++] = ' ';
        }
    }
    if (len > 0 && text[len - 1] == ' ')
        len--;
    out = PyUnicode_DecodeUTF8(text, len, "replace");
    PyMem_Free(text);
done:
    PyBuffer_Release(&view);
    return out;
}

static PyMethodDef accel_methods[] = {
    {"urn_positions", (PyCFunction)(void (*)(void))urn_positions, METH_FASTCALL, urn_positions_doc},
    {"looks_binary", (PyCFunction)looks_binary, METH_O, looks_binary_doc},
    {"context_snippet", (PyCFunction)(void (*)(void))context_snippet, METH_FASTCALL, context_snippet_doc},
    {"count_breaks", (PyCFunction)(void (*)(void))count_breaks, METH_VARARGS | METH_KEYWORDS, count_breaks_doc},
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
