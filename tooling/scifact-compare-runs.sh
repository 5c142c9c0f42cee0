#!/usr/bin/env bash
# Reproduces the closing note's system comparison on SciFact (BEIR test split): BM25, BM25 + RM3, dense and hybrid
# (BM25 + dense, RRF k = 60) indexes built with `factkit index`, every query searched with
# `factkit search --topics` into a TREC run, and the four runs compared with `factkit eval --runs` (paired t-tests
# against BM25 and between all pairs, Holm–Bonferroni per measure). Library defaults throughout (BM25 k1 0.9 b 0.4,
# RM3 10/10/0.5, top 1000): nothing was tuned, so the test split is read once.
#
#   FACTKIT_DATA=/path/to/data [EMBEDDER=use-lite|glove|transformers:<dir>] tooling/scifact-compare-runs.sh [out-folder]
#
# (after `pnpm build`; out-folder defaults to $TMPDIR/factkit-scifact-runs-<embedder>). EMBEDDER picks the dense model
# (default use-lite, 512-d, about 10 CPU-minutes for the 5,183 abstracts; glove = averaged GloVe 100-d, needs
# @factkit/glove, about a minute).
#
# Reads the data root at run time (never copies it). Writes indexes, runs and the table (.md, .tex, .html) to out-folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="${FACTKIT_DATA:?set FACTKIT_DATA to the data root (the folder holding scifact/)}"
scifact="$data/scifact"
embedder="${EMBEDDER:-use-lite}"
out="${1:-${TMPDIR:-/tmp}/factkit-scifact-runs-${embedder//[^a-z0-9-]/_}}"
mkdir -p "$out"
factkit() { node "$root/packages/cli/dist/bin.js" "$@"; }

[ -f "$out/bm25.index" ] || factkit index --beir "$scifact" --out "$out/bm25.index"
# The hybrid folder holds a BM25 index and the dense index (dense.index), so the corpus is embedded once.
[ -f "$out/hybrid/manifest.json" ] || factkit index --beir "$scifact" --kind hybrid --embedder "$embedder" --out "$out/hybrid"

factkit search --index "$out/bm25.index" --topics "$scifact/queries.jsonl" --run "$out/bm25.trec" --tag bm25
factkit search --index "$out/bm25.index" --topics "$scifact/queries.jsonl" --run "$out/bm25-rm3.trec" --tag bm25-rm3 --rm3
factkit search --index "$out/hybrid/dense.index" --topics "$scifact/queries.jsonl" --run "$out/dense.trec" --tag dense
factkit search --index "$out/hybrid" --topics "$scifact/queries.jsonl" --run "$out/hybrid.trec" --tag hybrid-rrf

runs="$out/bm25.trec,$out/bm25-rm3.trec,$out/dense.trec,$out/hybrid.trec"
compare=(--qrels "$scifact/qrels/test.tsv" --runs "$runs" --names "BM25,BM25+RM3,dense-$embedder,hybrid-$embedder" --metrics ndcg_cut_10,recall_100,map)
factkit eval "${compare[@]}" --out "$out/compare.tex"
factkit eval "${compare[@]}" --out "$out/compare.html"
factkit eval "${compare[@]}" --json > "$out/compare.json"
factkit eval "${compare[@]}" | tee "$out/compare.md"
