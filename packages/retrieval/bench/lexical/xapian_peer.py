#!/usr/bin/env python3
"""Xapian peer for the lexical benchmark (run by run.ts; needs Debian's python3-xapian).

Reads the corpus the benchmark wrote (docs.tsv: id TAB space-separated terms, already analysed by the benchmark's
analyzer) and the queries (queries.txt: one query per line, space-separated terms), builds a Xapian (glass) database
in the given directory, then times the same queries in-process: each sample = one pass over the query set
(Enquire.get_mset(0, 10)), median over `repeats` samples after one warm-up pass. Prints JSON on stdout.

Weighting: Xapian's BM25Weight(k1, k2=0, k3, b, min_normlen). Differences from Lucene's BM25 (why top-10 overlap is
below 1): idf is Robertson/Sparck Jones log((N - n + 0.5) / (n + 0.5)) (Xapian keeps it positive for terms in more
than half the documents by its own adjustment) instead of Lucene's log(1 + (N - n + 0.5) / (n + 0.5)); document
lengths are exact (Lucene stores a lossy one-byte norm); arithmetic is double (Lucene float32); the tf factor carries
(k1 + 1), which does not change rankings. min_normlen is set to 0 (Xapian's default 0.5 clamps the length
normalisation of documents shorter than half the average; Lucene does not). A query term repeated n times is one
term with wqf n, weighted by k3 ((k3 + 1) wqf / (k3 + wqf)); k3 is set very large so the weight is ≈ n, as Lucene's
boost. Xapian prunes with its own max-weight (MaxScore-style) matcher; ties are broken by ascending docid.
"""
import json
import os
import statistics
import sys
import time

import xapian


def main() -> None:
    directory, k1, b, repeats = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    database_path = os.path.join(directory, 'xapian-db')
    started = time.perf_counter()
    database = xapian.WritableDatabase(database_path, xapian.DB_CREATE_OR_OVERWRITE)
    ids = []
    with open(os.path.join(directory, 'docs.tsv'), encoding='utf-8') as documents:
        for line in documents:
            identifier, _, text = line.rstrip('\n').partition('\t')
            counts = {}
            for term in text.split(' '):
                if term:
                    counts[term] = counts.get(term, 0) + 1
            document = xapian.Document()
            for term, count in counts.items():
                document.add_term(term, count)
            database.add_document(document)  # docids 1, 2, … in corpus order
            ids.append(identifier)
    database.commit()
    database.close()
    build_seconds = time.perf_counter() - started

    database = xapian.Database(database_path)
    enquire = xapian.Enquire(database)
    k3 = 1e9
    enquire.set_weighting_scheme(xapian.BM25Weight(k1, 0, k3, b, 0))
    with open(os.path.join(directory, 'queries.txt'), encoding='utf-8') as handle:
        query_terms = [line.rstrip('\n').split(' ') for line in handle]
    queries = []
    for terms in query_terms:
        counts = {}
        for term in terms:
            if term:
                counts[term] = counts.get(term, 0) + 1
        # first-occurrence order; wqf = repeat count
        queries.append(xapian.Query(xapian.Query.OP_OR, [xapian.Query(term, count) for term, count in counts.items()]))

    def run_all():
        answers = []
        for query in queries:
            enquire.set_query(query)
            answers.append([ids[match.docid - 1] for match in enquire.get_mset(0, 10)])
        return answers

    answers = run_all()  # warm-up, and the answers compared with the reference
    passes = 1
    begun = time.perf_counter()
    run_all()
    pass_ms = (time.perf_counter() - begun) * 1000
    passes = max(1, min(1000, int(150 / max(pass_ms, 0.01)) + 1))
    samples = []
    for _ in range(repeats):
        begun = time.perf_counter()
        for _ in range(passes):
            run_all()
        samples.append((time.perf_counter() - begun) * 1000 / passes)
    middle = statistics.median(samples)
    json.dump({
        'version': xapian.version_string(),
        'buildSeconds': build_seconds,
        'queriesPerSecond': len(queries) / (middle / 1000),
        'sampleMs': samples,
        'passes': passes,
        'answers': answers,
        'weighting': f'BM25Weight(k1={k1}, k2=0, k3={k3:g}, b={b}, min_normlen=0)',
    }, sys.stdout)


if __name__ == '__main__':
    main()
