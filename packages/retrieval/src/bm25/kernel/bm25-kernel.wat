;; factkit BM25 accumulation kernel (plain, unshared memory; WebAssembly SIMD for the block maxima).
;; Source of the bytes embedded in bm25-kernel-wasm.ts. Regenerate with
;;   pnpm --filter @factkit/retrieval run build:kernel
;; (assembles this file offline with the `wabt` npm package); a unit test checks the two agree.
;; All pointers are byte offsets into the imported memory; positions index posting arrays. Scores are added into an
;; f64 accumulator in posting order, exactly as the JavaScript kernel adds them (f32 contributions promoted to f64).
(module
  (import "env" "memory" (memory 1))
  ;; acc_impacts(docs, impacts, acc, start, end): acc[docs[p]] += impacts[p] for p in [start, end)
  ;; docs: u32 document numbers, impacts: f32 precomputed contributions, acc: f64 per document.
  (func (export "acc_impacts") (param $docs i32) (param $impacts i32) (param $acc i32) (param $start i32) (param $end i32)
    (local $dp i32) (local $ip i32) (local $de i32) (local $a i32)
    (local.set $dp (i32.add (local.get $docs) (i32.shl (local.get $start) (i32.const 2))))
    (local.set $ip (i32.add (local.get $impacts) (i32.shl (local.get $start) (i32.const 2))))
    (local.set $de (i32.add (local.get $docs) (i32.shl (local.get $end) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $dp) (local.get $de)))
        (local.set $a (i32.add (local.get $acc) (i32.shl (i32.load (local.get $dp)) (i32.const 3))))
        (f64.store (local.get $a) (f64.add (f64.load (local.get $a)) (f64.promote_f32 (f32.load (local.get $ip)))))
        (local.set $dp (i32.add (local.get $dp) (i32.const 4)))
        (local.set $ip (i32.add (local.get $ip) (i32.const 4)))
        (br $next))))
  ;; acc_formula_u8(docs, tfs, factors, acc, start, end, weight): Lucene's BM25 in f32,
  ;; weight - weight / (1 + tf * factor[doc]), each operation rounded to f32 (= Math.fround of each step in JS);
  ;; tfs: u8 term frequencies, factors: f32 per document.
  (func (export "acc_formula_u8") (param $docs i32) (param $tfs i32) (param $factors i32) (param $acc i32) (param $start i32) (param $end i32) (param $weight f32)
    (local $p i32) (local $doc i32) (local $a i32)
    (local.set $p (local.get $start))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $doc (i32.load (i32.add (local.get $docs) (i32.shl (local.get $p) (i32.const 2)))))
        (local.set $a (i32.add (local.get $acc) (i32.shl (local.get $doc) (i32.const 3))))
        (f64.store (local.get $a)
          (f64.add (f64.load (local.get $a))
            (f64.promote_f32
              (f32.sub (local.get $weight)
                (f32.div (local.get $weight)
                  (f32.add (f32.const 1)
                    (f32.mul (f32.convert_i32_u (i32.load8_u (i32.add (local.get $tfs) (local.get $p))))
                      (f32.load (i32.add (local.get $factors) (i32.shl (local.get $doc) (i32.const 2)))))))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next))))
  ;; acc_formula_u32: acc_formula_u8 with u32 term frequencies.
  (func (export "acc_formula_u32") (param $docs i32) (param $tfs i32) (param $factors i32) (param $acc i32) (param $start i32) (param $end i32) (param $weight f32)
    (local $p i32) (local $doc i32) (local $a i32)
    (local.set $p (local.get $start))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $doc (i32.load (i32.add (local.get $docs) (i32.shl (local.get $p) (i32.const 2)))))
        (local.set $a (i32.add (local.get $acc) (i32.shl (local.get $doc) (i32.const 3))))
        (f64.store (local.get $a)
          (f64.add (f64.load (local.get $a))
            (f64.promote_f32
              (f32.sub (local.get $weight)
                (f32.div (local.get $weight)
                  (f32.add (f32.const 1)
                    (f32.mul (f32.convert_i32_u (i32.load (i32.add (local.get $tfs) (i32.shl (local.get $p) (i32.const 2)))))
                      (f32.load (i32.add (local.get $factors) (i32.shl (local.get $doc) (i32.const 2)))))))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next))))
  ;; block_max(acc, blocks, out): out[b] (f64) = max of acc[64 b .. 64 b + 63] for b < blocks (acc padded with zeros).
  (func (export "block_max") (param $acc i32) (param $blocks i32) (param $out i32)
    (local $end i32) (local $p i32) (local $stop i32) (local $m v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $blocks) (i32.const 3))))
    (local.set $p (local.get $acc))
    (block $done
      (loop $block
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $m (v128.load (local.get $p)))
        (local.set $stop (i32.add (local.get $p) (i32.const 512)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (block $inner_done
          (loop $inner
            (br_if $inner_done (i32.ge_u (local.get $p) (local.get $stop)))
            (local.set $m (f64x2.pmax (local.get $m) (v128.load (local.get $p))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (br $inner)))
        (f64.store (local.get $out) (f64x2.extract_lane 0 (f64x2.pmax (local.get $m) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $m) (local.get $m)))))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (br $block))))
)
