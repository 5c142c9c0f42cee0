;; factkit quantized flat-index kernel: int8 rows × int16 queries, WebAssembly SIMD (128-bit), plain (unshared) memory.
;; Source of the bytes embedded in int8-kernel-wasm.ts. Regenerate with
;;   pnpm --filter @factkit/retrieval run build:kernel
;; (assembles this file offline with the `wabt` npm package); a unit test checks the two agree.
;; All pointers are byte offsets into the imported memory. A row is `stride` signed bytes (stride % 16 == 0, zero
;; padded); a query is `stride` signed 16-bit integers. Sums are exact 32-bit integers as long as
;; Σ|row_k|·|query_k| < 2^31 (the caller scales the query so that it is); i32 addition wraps, so partial sums may not.
(module
  (import "env" "memory" (memory 1 65536))
  ;; dot8(mat, rows, stride, q, out): out[r] (i32) = Σ_k mat[r*stride + k] (i8) · q[k] (i16), for r < rows.
  (func (export "dot8") (param $mat i32) (param $rows i32) (param $stride i32) (param $q i32) (param $out i32)
    (local $end i32) (local $k i32) (local $main i32) (local $v v128) (local $w v128) (local $qp i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $main (i32.and (local.get $stride) (i32.const -32)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $done
      (loop $rows_loop
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $k (i32.const 0))
        (block $m_done
          (loop $m_loop
            (br_if $m_done (i32.ge_u (local.get $k) (local.get $main)))
            (local.set $v (v128.load (i32.add (local.get $mat) (local.get $k))))
            (local.set $w (v128.load offset=16 (i32.add (local.get $mat) (local.get $k))))
            (local.set $qp (i32.add (local.get $q) (i32.shl (local.get $k) (i32.const 1))))
            (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=0 (local.get $qp)))))
            (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=16 (local.get $qp)))))
            (local.set $a2 (i32x4.add (local.get $a2) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $w)) (v128.load offset=32 (local.get $qp)))))
            (local.set $a3 (i32x4.add (local.get $a3) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $w)) (v128.load offset=48 (local.get $qp)))))
            (local.set $k (i32.add (local.get $k) (i32.const 32)))
            (br $m_loop)))
        (if (i32.lt_u (local.get $k) (local.get $stride))
          (then
            (local.set $v (v128.load (i32.add (local.get $mat) (local.get $k))))
            (local.set $qp (i32.add (local.get $q) (i32.shl (local.get $k) (i32.const 1))))
            (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=0 (local.get $qp)))))
            (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=16 (local.get $qp)))))))
        (local.set $a0 (i32x4.add (i32x4.add (local.get $a0) (local.get $a1)) (i32x4.add (local.get $a2) (local.get $a3))))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $a0)) (i32x4.extract_lane 1 (local.get $a0)))
            (i32.add (i32x4.extract_lane 2 (local.get $a0)) (i32x4.extract_lane 3 (local.get $a0)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $mat (i32.add (local.get $mat) (local.get $stride)))
        (br $rows_loop))))
  ;; dot8x4(mat, rows, stride, q, out, outStride): four queries at q, q + 2*stride, q + 4*stride, q + 6*stride;
  ;; out[j*outStride + r] (i32) = Σ_k mat[r*stride + k] · q_j[k]. Each row is loaded and widened once for the four.
  (func (export "dot8x4") (param $mat i32) (param $rows i32) (param $stride i32) (param $q i32) (param $out i32) (param $outStride i32)
    (local $end i32) (local $k i32) (local $v v128) (local $lo v128) (local $hi v128) (local $qp i32) (local $qb i32) (local $ob i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $qb (i32.shl (local.get $stride) (i32.const 1)))
    (local.set $ob (i32.shl (local.get $outStride) (i32.const 2)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $done
      (loop $rows_loop
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $k (i32.const 0))
        (block $k_done
          (loop $k_loop
            (br_if $k_done (i32.ge_u (local.get $k) (local.get $stride)))
            (local.set $v (v128.load (i32.add (local.get $mat) (local.get $k))))
            (local.set $lo (i16x8.extend_low_i8x16_s (local.get $v)))
            (local.set $hi (i16x8.extend_high_i8x16_s (local.get $v)))
            (local.set $qp (i32.add (local.get $q) (i32.shl (local.get $k) (i32.const 1))))
            (local.set $a0 (i32x4.add (local.get $a0) (i32x4.add
              (i32x4.dot_i16x8_s (local.get $lo) (v128.load offset=0 (local.get $qp)))
              (i32x4.dot_i16x8_s (local.get $hi) (v128.load offset=16 (local.get $qp))))))
            (local.set $qp (i32.add (local.get $qp) (local.get $qb)))
            (local.set $a1 (i32x4.add (local.get $a1) (i32x4.add
              (i32x4.dot_i16x8_s (local.get $lo) (v128.load offset=0 (local.get $qp)))
              (i32x4.dot_i16x8_s (local.get $hi) (v128.load offset=16 (local.get $qp))))))
            (local.set $qp (i32.add (local.get $qp) (local.get $qb)))
            (local.set $a2 (i32x4.add (local.get $a2) (i32x4.add
              (i32x4.dot_i16x8_s (local.get $lo) (v128.load offset=0 (local.get $qp)))
              (i32x4.dot_i16x8_s (local.get $hi) (v128.load offset=16 (local.get $qp))))))
            (local.set $qp (i32.add (local.get $qp) (local.get $qb)))
            (local.set $a3 (i32x4.add (local.get $a3) (i32x4.add
              (i32x4.dot_i16x8_s (local.get $lo) (v128.load offset=0 (local.get $qp)))
              (i32x4.dot_i16x8_s (local.get $hi) (v128.load offset=16 (local.get $qp))))))
            (local.set $k (i32.add (local.get $k) (i32.const 16)))
            (br $k_loop)))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $a0)) (i32x4.extract_lane 1 (local.get $a0)))
            (i32.add (i32x4.extract_lane 2 (local.get $a0)) (i32x4.extract_lane 3 (local.get $a0)))))
        (i32.store (i32.add (local.get $out) (local.get $ob))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $a1)) (i32x4.extract_lane 1 (local.get $a1)))
            (i32.add (i32x4.extract_lane 2 (local.get $a1)) (i32x4.extract_lane 3 (local.get $a1)))))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $ob) (i32.const 1)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $a2)) (i32x4.extract_lane 1 (local.get $a2)))
            (i32.add (i32x4.extract_lane 2 (local.get $a2)) (i32x4.extract_lane 3 (local.get $a2)))))
        (i32.store (i32.add (local.get $out) (i32.mul (local.get $ob) (i32.const 3)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $a3)) (i32x4.extract_lane 1 (local.get $a3)))
            (i32.add (i32x4.extract_lane 2 (local.get $a3)) (i32x4.extract_lane 3 (local.get $a3)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $mat (i32.add (local.get $mat) (local.get $stride)))
        (br $rows_loop))))
  ;; hamming(codes, rows, bstride, q, out, hist): binary (sign) codes of `bstride` bytes per row (bstride % 8 == 0);
  ;; out[r] (u16) = popcount(row_r xor q) over the i64 words, and hist[out[r]] (i32) += 1 (the caller zeroes hist).
  (func (export "hamming") (param $codes i32) (param $rows i32) (param $bstride i32) (param $q i32) (param $out i32) (param $hist i32)
    (local $end i32) (local $k i32) (local $d i64) (local $di i32) (local $h i32)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 1))))
    (block $done
      (loop $rows_loop
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $d (i64.const 0))
        (local.set $k (i32.const 0))
        (block $k_done
          (loop $k_loop
            (br_if $k_done (i32.ge_u (local.get $k) (local.get $bstride)))
            (local.set $d (i64.add (local.get $d) (i64.popcnt (i64.xor
              (i64.load (i32.add (local.get $codes) (local.get $k)))
              (i64.load (i32.add (local.get $q) (local.get $k)))))))
            (local.set $k (i32.add (local.get $k) (i32.const 8)))
            (br $k_loop)))
        (local.set $di (i32.wrap_i64 (local.get $d)))
        (i32.store16 (local.get $out) (local.get $di))
        (local.set $h (i32.add (local.get $hist) (i32.shl (local.get $di) (i32.const 2))))
        (i32.store (local.get $h) (i32.add (i32.load (local.get $h)) (i32.const 1)))
        (local.set $out (i32.add (local.get $out) (i32.const 2)))
        (local.set $codes (i32.add (local.get $codes) (local.get $bstride)))
        (br $rows_loop))))
)
