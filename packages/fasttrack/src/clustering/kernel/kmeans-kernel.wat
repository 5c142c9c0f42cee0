;; factkit k-means kernel (WebAssembly SIMD). Source of the bytes embedded in kmeans-kernel-wasm.ts. Regenerate with
;;   pnpm --filter @factkit/fasttrack run build:kernel
;; (assembles this file offline with the `wabt` npm package, through retrieval's assembly helper); a unit test checks
;; the two agree. All pointers are byte offsets into the imported memory; `stride` is the row length in floats
;; (dimensions rounded up to a multiple of 4, zero padded), so every row starts 16-byte aligned.
(module
  (import "env" "memory" (memory 1))
  ;; dist(row, cent, rowBytes): sum_i (row[i] - cent[i])^2 in float32: sixteen partial sums (four f32x4
  ;; accumulators over 64-byte blocks, the 16-byte tail into the first), added at the end.
  (func $dist (param $row i32) (param $c i32) (param $rowBytes i32) (result f32)
    (local $i i32) (local $main i32) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $t v128)
    (local.set $main (i32.and (local.get $rowBytes) (i32.const -64)))
    (block $m_done
      (loop $m_loop
        (br_if $m_done (i32.ge_u (local.get $i) (local.get $main)))
        (local.set $t (f32x4.sub (v128.load offset=0 (i32.add (local.get $row) (local.get $i))) (v128.load offset=0 (i32.add (local.get $c) (local.get $i)))))
        (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $t) (local.get $t))))
        (local.set $t (f32x4.sub (v128.load offset=16 (i32.add (local.get $row) (local.get $i))) (v128.load offset=16 (i32.add (local.get $c) (local.get $i)))))
        (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $t) (local.get $t))))
        (local.set $t (f32x4.sub (v128.load offset=32 (i32.add (local.get $row) (local.get $i))) (v128.load offset=32 (i32.add (local.get $c) (local.get $i)))))
        (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $t) (local.get $t))))
        (local.set $t (f32x4.sub (v128.load offset=48 (i32.add (local.get $row) (local.get $i))) (v128.load offset=48 (i32.add (local.get $c) (local.get $i)))))
        (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $t) (local.get $t))))
        (local.set $i (i32.add (local.get $i) (i32.const 64)))
        (br $m_loop)))
    (block $t_done
      (loop $t_loop
        (br_if $t_done (i32.ge_u (local.get $i) (local.get $rowBytes)))
        (local.set $t (f32x4.sub (v128.load (i32.add (local.get $row) (local.get $i))) (v128.load (i32.add (local.get $c) (local.get $i)))))
        (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $t) (local.get $t))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $t_loop)))
    (local.set $a0 (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
    (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
      (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))
  ;; sqdist(rows, nRows, cents, k, stride, out): out[r*k + j] = dist(rows[r], cents[j]) for r < nRows, j < k.
  (func (export "sqdist") (param $rows i32) (param $nRows i32) (param $cents i32) (param $k i32) (param $stride i32) (param $out i32)
    (local $r i32) (local $j i32) (local $rowBytes i32) (local $c i32)
    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 2)))
    (block $rows_done
      (loop $rows_loop
        (br_if $rows_done (i32.ge_u (local.get $r) (local.get $nRows)))
        (local.set $c (local.get $cents))
        (local.set $j (i32.const 0))
        (block $cents_done
          (loop $cents_loop
            (br_if $cents_done (i32.ge_u (local.get $j) (local.get $k)))
            (f32.store (local.get $out) (call $dist (local.get $rows) (local.get $c) (local.get $rowBytes)))
            (local.set $out (i32.add (local.get $out) (i32.const 4)))
            (local.set $c (i32.add (local.get $c) (local.get $rowBytes)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $cents_loop)))
        (local.set $rows (i32.add (local.get $rows) (local.get $rowBytes)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows_loop))))
  ;; sqdistAt(rows, idx, nIdx, cents, k, stride, out): out[t*k + j] = dist(rows[idx[t]], cents[j]) for t < nIdx, j < k;
  ;; `idx` holds nIdx int32 row numbers.
  (func (export "sqdistAt") (param $rows i32) (param $idx i32) (param $nIdx i32) (param $cents i32) (param $k i32) (param $stride i32) (param $out i32)
    (local $t i32) (local $j i32) (local $rowBytes i32) (local $row i32) (local $c i32)
    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 2)))
    (block $rows_done
      (loop $rows_loop
        (br_if $rows_done (i32.ge_u (local.get $t) (local.get $nIdx)))
        (local.set $row (i32.add (local.get $rows) (i32.mul (i32.load (local.get $idx)) (local.get $rowBytes))))
        (local.set $c (local.get $cents))
        (local.set $j (i32.const 0))
        (block $cents_done
          (loop $cents_loop
            (br_if $cents_done (i32.ge_u (local.get $j) (local.get $k)))
            (f32.store (local.get $out) (call $dist (local.get $row) (local.get $c) (local.get $rowBytes)))
            (local.set $out (i32.add (local.get $out) (i32.const 4)))
            (local.set $c (i32.add (local.get $c) (local.get $rowBytes)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $cents_loop)))
        (local.set $idx (i32.add (local.get $idx) (i32.const 4)))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $rows_loop))))
  ;; sqdistOwn(rows, idx, nIdx, cents, assign, stride, out): out[t] = dist(rows[idx[t]], cents[assign[idx[t]]]).
  (func (export "sqdistOwn") (param $rows i32) (param $idx i32) (param $nIdx i32) (param $cents i32) (param $assign i32) (param $stride i32) (param $out i32)
    (local $t i32) (local $rowBytes i32) (local $row i32)
    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 2)))
    (block $rows_done
      (loop $rows_loop
        (br_if $rows_done (i32.ge_u (local.get $t) (local.get $nIdx)))
        (local.set $row (i32.load (local.get $idx)))
        (f32.store (local.get $out)
          (call $dist
            (i32.add (local.get $rows) (i32.mul (local.get $row) (local.get $rowBytes)))
            (i32.add (local.get $cents) (i32.mul (i32.load (i32.add (local.get $assign) (i32.shl (local.get $row) (i32.const 2)))) (local.get $rowBytes)))
            (local.get $rowBytes)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $idx (i32.add (local.get $idx) (i32.const 4)))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $rows_loop))))
  ;; accumulate(rows, n, stride, assign, sums): for r < n in order, sums[assign[r]][i] += float64(rows[r][i]); `assign`
  ;; holds n int32 cluster ids, `sums` k × stride float64. Each coordinate is summed in row order, as a scalar loop does.
  (func (export "accumulate") (param $rows i32) (param $n i32) (param $stride i32) (param $assign i32) (param $sums i32)
    (local $r i32) (local $i i32) (local $rowBytes i32) (local $s i32) (local $p i32)
    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 2)))
    (block $done
      (loop $rows_loop
        (br_if $done (i32.ge_u (local.get $r) (local.get $n)))
        (local.set $s (i32.add (local.get $sums) (i32.mul (i32.load (local.get $assign)) (i32.shl (local.get $rowBytes) (i32.const 1)))))
        (local.set $i (i32.const 0))
        (block $c_done
          (loop $c_loop
            (br_if $c_done (i32.ge_u (local.get $i) (local.get $rowBytes)))
            (local.set $p (i32.add (local.get $s) (i32.shl (local.get $i) (i32.const 1))))
            (v128.store offset=0 (local.get $p)
              (f64x2.add (v128.load offset=0 (local.get $p)) (f64x2.promote_low_f32x4 (v128.load64_zero offset=0 (i32.add (local.get $rows) (local.get $i))))))
            (v128.store offset=16 (local.get $p)
              (f64x2.add (v128.load offset=16 (local.get $p)) (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (i32.add (local.get $rows) (local.get $i))))))
            (local.set $i (i32.add (local.get $i) (i32.const 16)))
            (br $c_loop)))
        (local.set $assign (i32.add (local.get $assign) (i32.const 4)))
        (local.set $rows (i32.add (local.get $rows) (local.get $rowBytes)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows_loop))))
  ;; inertia(rows, n, stride, assign, cents): sum over r < n of sum_i (float64(rows[r][i]) - cents[assign[r]][i])^2 in
  ;; float64; `cents` k × stride float64 (zero padded). Four float64 partial sums (two f64x2 accumulators).
  (func (export "inertia") (param $rows i32) (param $n i32) (param $stride i32) (param $assign i32) (param $cents i32) (result f64)
    (local $r i32) (local $i i32) (local $rowBytes i32) (local $c i32) (local $t v128) (local $a0 v128) (local $a1 v128)
    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 2)))
    (block $done
      (loop $rows_loop
        (br_if $done (i32.ge_u (local.get $r) (local.get $n)))
        (local.set $c (i32.add (local.get $cents) (i32.mul (i32.load (local.get $assign)) (i32.shl (local.get $rowBytes) (i32.const 1)))))
        (local.set $i (i32.const 0))
        (block $c_done
          (loop $c_loop
            (br_if $c_done (i32.ge_u (local.get $i) (local.get $rowBytes)))
            (local.set $t (f64x2.sub
              (f64x2.promote_low_f32x4 (v128.load64_zero offset=0 (i32.add (local.get $rows) (local.get $i))))
              (v128.load offset=0 (i32.add (local.get $c) (i32.shl (local.get $i) (i32.const 1))))))
            (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $t) (local.get $t))))
            (local.set $t (f64x2.sub
              (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (i32.add (local.get $rows) (local.get $i))))
              (v128.load offset=16 (i32.add (local.get $c) (i32.shl (local.get $i) (i32.const 1))))))
            (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $t) (local.get $t))))
            (local.set $i (i32.add (local.get $i) (i32.const 16)))
            (br $c_loop)))
        (local.set $assign (i32.add (local.get $assign) (i32.const 4)))
        (local.set $rows (i32.add (local.get $rows) (local.get $rowBytes)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows_loop)))
    (local.set $a0 (f64x2.add (local.get $a0) (local.get $a1)))
    (f64.add (f64x2.extract_lane 0 (local.get $a0)) (f64x2.extract_lane 1 (local.get $a0))))
)
