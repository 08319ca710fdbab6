"""Peak memory of a scan over a pathological stream.

    python3 benchmarks/bench_memory.py [--gb 2] [--run-gb 1] [--chunk-mb 1]

Streams (from a generator: nothing on disk) GB bytes with no line break at
all: prose with URNs, then a run of RUN-GB of URN characters after a
``urn:example:``, then more prose.  Prints the hits, the time, and the peak
resident memory of the process (``ru_maxrss``) beside the memory of the
interpreter with urnscan imported, measured in the same run.  The scanner
keeps at most about two chunks plus its look-ahead window (2 x
max_urn_length + 3 KiB) in memory, whatever the input.
"""
import argparse
import resource
import time

import urnscan


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def stream(total: int, run: int, chunk: int):
    # about one URN per 2 KB, no line break anywhere
    sentence = (b"prose without line breaks, see urn:isbn:0451450523 and <urn:ietf:rfc:2141> then "
                b"return: values and Saturn: notes. " + b"filler words in a long paragraph " * 120)
    prose = sentence * (chunk // len(sentence) + 1)
    prose = prose[:chunk]
    sent = 0
    half = (total - run) // 2
    while sent < half:
        yield prose
        sent += len(prose)
    yield b" urn:example:"
    block = b"a" * chunk
    left = run
    while left > 0:
        piece = block[:min(chunk, left)]
        yield piece
        left -= len(piece)
        sent += len(piece)
    while sent < total:
        yield prose
        sent += len(prose)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gb", type=float, default=2.0)
    ap.add_argument("--run-gb", type=float, default=1.0)
    ap.add_argument("--chunk-mb", type=float, default=1.0)
    args = ap.parse_args()
    total, run, chunk = int(args.gb * 2**30), int(args.run_gb * 2**30), int(args.chunk_mb * 2**20)
    list(urnscan.scan_text("warm up urn:example:a"))  # load numpy and the tables
    before = peak_mib()
    t0 = time.perf_counter()
    hits = over = 0
    for hit in urnscan.scan_bytes(stream(total, run, chunk)):
        hits += 1
        over += "over-long" in hit.codes
    dt = time.perf_counter() - t0
    print(f"input {total / 2**30:.1f} GiB without line breaks, one run of {run / 2**30:.1f} GiB of URN characters, "
          f"chunks of {chunk / 2**20:.1f} MiB")
    print(f"hits {hits:,} ({over} over-long) in {dt:.1f} s ({total / dt / 1e6:.0f} MB/s)")
    print(f"peak RSS {peak_mib():.0f} MiB; interpreter + urnscan before the scan {before:.0f} MiB; "
          f"growth {peak_mib() - before:.0f} MiB")


if __name__ == "__main__":
    main()
