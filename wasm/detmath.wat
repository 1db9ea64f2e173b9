;; The library's deterministic exp, log and log1p (src/math/exp.ts, src/math/log.ts) in WebAssembly,
;; step by step the same operations, so the same bits: f64 add/sub/mul/div only (no fused
;; multiply-add, no engine math), exact conversions and bit casts, constants as hex literals of the
;; JavaScript literals, and powers of two made from their bit patterns (the values of POW2_ALL).
;;
;; Not a module: a list of module fields that scripts/build-wasm.ts splices into a module at the
;; line `;; #include detmath.wat` (wasm/glm.wat), with a data segment at byte 0 of the module's
;; memory that it generates, the tables from src/math/constants.ts (so one source for their bits):
;;   bytes [0, 2048):    (EXP_T_HI[j], EXP_T_LO[j]) for j = 0..127, 16 bytes per j;
;;   bytes [2048, 6144): (LOG_INVC[i], LOG_C_HI[i], LOG_C_LO[i], 0) for i = 0..127, 32 bytes per i
;;                       (log.ts's LOG_TAB);
;;   bytes [6144, 8192): the constant pool: the build replaces each f64x2 (i32x4) splat of a constant
;;                       below by a 16-byte load of the pair from here (V8 rebuilds a vector
;;                       constant at every use; a load is one instruction: measured ~15–25% faster).
;; A module that includes this keeps its own data at byte DETMATH_BYTES = 8192 and above.
;;
;; test/math/wasm-detmath.test.ts checks every function against the JavaScript bit for bit.

  ;; 2^e for e in [−1022, 1023], exact (the double with exponent field e + 1023 and zero mantissa).
  (func $dm_pow2 (param $e i32) (result f64)
    (f64.reinterpret_i64 (i64.shl (i64.extend_i32_u (i32.add (local.get $e) (i32.const 1023))) (i64.const 52))))

  ;; detExp (exp.ts: `expCore(EXP)`, `expKernel`, `scale`, `scaleSubnormal`).
  (func $dm_exp (export "detExp") (param $x f64) (result f64)
    (local $kf f64) (local $r f64) (local $r2 f64) (local $p f64) (local $t f64) (local $q f64) (local $s f64)
    (local $vh f64) (local $vl f64) (local $k i32) (local $j i32) (local $e i32)
    (if (i32.eqz (f64.le (local.get $x) (f64.const 0x1.62e42fefa39efp+9)))        ;; 709.782712893384; also NaN
      (then (return (select (f64.const inf) (f64.const nan) (f64.gt (local.get $x) (f64.const 0))))))
    (if (i32.eqz (f64.ge (local.get $x) (f64.const -746)))
      (then (return (select (f64.const 0) (f64.const nan) (f64.lt (local.get $x) (f64.const 0))))))
    ;; expKernel: k = x·128/ln 2 rounded (ties to even) by adding and subtracting 1.5·2^52
    (local.set $kf (f64.sub (f64.add (f64.mul (local.get $x) (f64.const 0x1.71547652b82fep+7)) (f64.const 0x1.8p+52)) (f64.const 0x1.8p+52)))
    (local.set $r (f64.sub
      (f64.sub (local.get $x) (f64.mul (local.get $kf) (f64.const 0x1.62e42fef8p-8)))          ;; EXP_LN2N_HI
      (f64.mul (local.get $kf) (f64.const 0x1.1cf79abc9e3b4p-43))))                           ;; EXP_LN2N_LO
    (local.set $k (i32.trunc_f64_s (local.get $kf)))
    (local.set $j (i32.shl (i32.and (local.get $k) (i32.const 127)) (i32.const 4)))
    (local.set $e (i32.shr_s (local.get $k) (i32.const 7)))
    (local.set $r2 (f64.mul (local.get $r) (local.get $r)))
    ;; p = r + r²·(1/2 + r/6) + r⁴·(1/24 + r/120 + r²/720)
    (local.set $p (f64.add
      (f64.add (local.get $r)
        (f64.mul (local.get $r2) (f64.add (f64.const 0.5) (f64.mul (local.get $r) (f64.const 0x1.5555555555555p-3)))))
      (f64.mul (f64.mul (local.get $r2) (local.get $r2))
        (f64.add
          (f64.add (f64.const 0x1.5555555555555p-5) (f64.mul (local.get $r) (f64.const 0x1.1111111111111p-7)))
          (f64.mul (local.get $r2) (f64.const 0x1.6c16c16c16c17p-10))))))
    (local.set $t (f64.load (local.get $j)))
    (local.set $q (f64.add (f64.load offset=8 (local.get $j)) (f64.mul (local.get $t) (local.get $p))))
    ;; scale(e): (t + q)·2^e rounded once
    (local.set $s (f64.add (local.get $t) (local.get $q)))
    (if (i32.or (i32.gt_s (local.get $e) (i32.const -1022))
                (i32.and (i32.eq (local.get $e) (i32.const -1022)) (f64.ge (local.get $s) (f64.const 1))))
      (then
        (if (i32.le_s (local.get $e) (i32.const 1023))
          (then (return (f64.mul (local.get $s) (call $dm_pow2 (local.get $e))))))
        (return (f64.mul (f64.mul (local.get $s) (f64.const 2)) (call $dm_pow2 (i32.sub (local.get $e) (i32.const 1)))))))
    ;; scaleSubnormal: 1 + v rounded to a multiple of 2^−52, minus 1, times 2^−1022
    (if (i32.lt_s (local.get $e) (i32.const -1080)) (then (return (f64.const 0))))
    (local.set $s (call $dm_pow2 (i32.add (local.get $e) (i32.const 1022))))
    (local.set $vh (f64.mul (local.get $t) (local.get $s)))
    (local.set $vl (f64.mul (local.get $q) (local.get $s)))
    (local.set $t (f64.add (f64.const 1) (local.get $vh)))
    (f64.mul
      (f64.sub
        (f64.add (local.get $t) (f64.add (f64.sub (local.get $vh) (f64.sub (local.get $t) (f64.const 1))) (local.get $vl)))
        (f64.const 1))
      (f64.const 0x1p-1022)))

  ;; log.ts's kernel for positive finite v: ln v = k·ln 2 + (hi + lo) as (hi, lo, k), with v scaled
  ;; into [2^−1022, 2^1000] first where it is outside (exactly; k compensates).
  (func $dm_lnKernel (param $v f64) (result f64 f64 i32)
    (local $k i32) (local $t i32) (local $e i32) (local $i i32)
    (local $c f64) (local $vh f64) (local $vl f64) (local $w f64) (local $rh f64) (local $rl f64) (local $r f64)
    (local $rv f64) (local $re f64) (local $r2 f64) (local $p f64) (local $ch f64) (local $hi f64) (local $hv f64) (local $he f64)
    (if (i32.eqz (i32.and (f64.ge (local.get $v) (f64.const 0x1p-1022)) (f64.le (local.get $v) (f64.const 0x1p+1000))))
      (then
        (if (f64.lt (local.get $v) (f64.const 1))
          (then (local.set $v (f64.mul (local.get $v) (f64.const 0x1p+54))) (local.set $k (i32.const -54)))
          (else (local.set $v (f64.mul (local.get $v) (f64.const 0x1p-64))) (local.set $k (i32.const 64))))))
    (local.set $t (i32.sub (i32.wrap_i64 (i64.shr_u (i64.reinterpret_f64 (local.get $v)) (i64.const 32))) (i32.const 0x3fe6a000)))
    (local.set $e (i32.shr_s (local.get $t) (i32.const 20)))
    (local.set $i (i32.shl (i32.and (i32.shr_s (local.get $t) (i32.const 11)) (i32.const 508)) (i32.const 3)))   ;; bytes
    (local.set $k (i32.add (local.get $k) (local.get $e)))
    (local.set $c (f64.mul (f64.const 513) (local.get $v)))
    (local.set $vh (f64.sub (local.get $c) (f64.sub (local.get $c) (local.get $v))))
    (local.set $vl (f64.sub (local.get $v) (local.get $vh)))
    (local.set $w (f64.mul (f64.load offset=2048 (local.get $i)) (call $dm_pow2 (i32.sub (i32.const 0) (local.get $e)))))
    (local.set $rh (f64.sub (f64.mul (local.get $vh) (local.get $w)) (f64.const 1)))
    (local.set $rl (f64.mul (local.get $vl) (local.get $w)))
    (local.set $r (f64.add (local.get $rh) (local.get $rl)))
    (local.set $rv (f64.sub (local.get $r) (local.get $rh)))
    (local.set $re (f64.add (f64.sub (local.get $rh) (f64.sub (local.get $r) (local.get $rv))) (f64.sub (local.get $rl) (local.get $rv))))
    (local.set $r2 (f64.mul (local.get $r) (local.get $r)))
    ;; p = r²·((−1/2 + r/3) + r²·((−1/4 + r/5) + r²·((−1/6 + r/7) − r²/8)))
    (local.set $p (f64.mul (local.get $r2)
      (f64.add (f64.add (f64.const -0.5) (f64.mul (local.get $r) (f64.const 0x1.5555555555555p-2)))
        (f64.mul (local.get $r2)
          (f64.add (f64.add (f64.const -0.25) (f64.mul (local.get $r) (f64.const 0x1.999999999999ap-3)))
            (f64.mul (local.get $r2)
              (f64.sub (f64.add (f64.const -0x1.5555555555555p-3) (f64.mul (local.get $r) (f64.const 0x1.2492492492492p-3)))
                (f64.mul (f64.const 0.125) (local.get $r2)))))))))
    (local.set $ch (f64.load offset=2056 (local.get $i)))
    (local.set $hi (f64.add (local.get $ch) (local.get $r)))
    (local.set $hv (f64.sub (local.get $hi) (local.get $ch)))
    (local.set $he (f64.add (f64.sub (local.get $ch) (f64.sub (local.get $hi) (local.get $hv))) (f64.sub (local.get $r) (local.get $hv))))
    (local.get $hi)
    (f64.add (f64.add (f64.add (local.get $he) (f64.load offset=2064 (local.get $i))) (local.get $re)) (local.get $p))
    (local.get $k))

  ;; k·ln 2 + (hi + lo), ln 2 = LN2_HI + LN2_LO (k·LN2_HI exact), rounded once (log.ts's last lines).
  (func $dm_lnFinish (param $hi f64) (param $lo f64) (param $k i32) (result f64)
    (local $a f64) (local $s f64) (local $kf f64)
    (if (i32.eqz (local.get $k)) (then (return (f64.add (local.get $hi) (local.get $lo)))))
    (local.set $kf (f64.convert_i32_s (local.get $k)))
    (local.set $a (f64.mul (local.get $kf) (f64.const 0x1.62e42feep-1)))                         ;; LN2_HI
    (local.set $s (f64.add (local.get $a) (local.get $hi)))
    (f64.add (local.get $s)
      (f64.add (f64.sub (local.get $hi) (f64.sub (local.get $s) (local.get $a)))
        (f64.add (local.get $lo) (f64.mul (local.get $kf) (f64.const 0x1.a39ef35793c76p-33))))))  ;; LN2_LO

  ;; detLog (log.ts: `logCore(LOG)`).
  (func $dm_log (export "detLog") (param $x f64) (result f64)
    (local $hi f64) (local $lo f64) (local $k i32)
    (if (i32.eqz (i32.and (f64.gt (local.get $x) (f64.const 0)) (f64.lt (local.get $x) (f64.const inf))))
      (then (return
        (select (f64.const -inf)
          (select (local.get $x) (f64.const nan) (f64.eq (local.get $x) (f64.const inf)))
          (f64.eq (local.get $x) (f64.const 0))))))
    (call $dm_lnKernel (local.get $x))
    (local.set $k)
    (local.set $lo)
    (local.set $hi)
    (call $dm_lnFinish (local.get $hi) (local.get $lo) (local.get $k)))

  ;; detLog1p (log.ts: `logCore(LOG1P)`).
  (func $dm_log1p (export "detLog1p") (param $x f64) (result f64)
    (local $ax f64) (local $x2 f64) (local $u f64) (local $bv f64) (local $d f64) (local $hi f64) (local $lo f64) (local $k i32)
    (if (i32.eqz (i32.and (f64.gt (local.get $x) (f64.const -1)) (f64.lt (local.get $x) (f64.const inf))))
      (then (return
        (select (f64.const -inf)
          (select (local.get $x) (f64.const nan) (f64.eq (local.get $x) (f64.const inf)))
          (f64.eq (local.get $x) (f64.const -1))))))
    (local.set $ax (select (f64.neg (local.get $x)) (local.get $x) (f64.lt (local.get $x) (f64.const 0))))
    (if (f64.lt (local.get $ax) (f64.const 0x1p-7))
      (then
        (if (f64.lt (local.get $ax) (f64.const 0x1p-54)) (then (return (local.get $x))))
        (local.set $x2 (f64.mul (local.get $x) (local.get $x)))
        ;; x + x²·((−1/2 + x/3) + x²·((−1/4 + x/5) + x²·((−1/6 + x/7) + x²·(−1/8 + x/9))))
        (return (f64.add (local.get $x) (f64.mul (local.get $x2)
          (f64.add (f64.add (f64.const -0.5) (f64.mul (local.get $x) (f64.const 0x1.5555555555555p-2)))
            (f64.mul (local.get $x2)
              (f64.add (f64.add (f64.const -0.25) (f64.mul (local.get $x) (f64.const 0x1.999999999999ap-3)))
                (f64.mul (local.get $x2)
                  (f64.add (f64.add (f64.const -0x1.5555555555555p-3) (f64.mul (local.get $x) (f64.const 0x1.2492492492492p-3)))
                    (f64.mul (local.get $x2) (f64.add (f64.const -0.125) (f64.mul (local.get $x) (f64.const 0x1.c71c71c71c71cp-4))))))))))))))
    ;; 1 + x = u + d exactly (two-sum)
    (local.set $u (f64.add (f64.const 1) (local.get $x)))
    (local.set $bv (f64.sub (local.get $u) (f64.const 1)))
    (local.set $d (f64.add (f64.sub (f64.const 1) (f64.sub (local.get $u) (local.get $bv))) (f64.sub (local.get $x) (local.get $bv))))
    (call $dm_lnKernel (local.get $u))
    (local.set $k)
    (local.set $lo)
    (local.set $hi)
    ;; the rounding error d of 1 + x added as d/u
    (local.set $lo (f64.add (local.get $lo)
      (select (f64.const 0) (f64.div (local.get $d) (local.get $u)) (f64.eq (local.get $d) (f64.const 0)))))
    (call $dm_lnFinish (local.get $hi) (local.get $lo) (local.get $k)))

  ;; ---- Two lanes at once (f64x2): each lane is the scalar function above, operation for operation
  ;; (SIMD f64x2 add/sub/mul/div are IEEE, lane by lane), on a fast domain where no lane takes a
  ;; special branch; a pair with a lane outside it goes through the scalar functions lane by lane.

  ;; detExp lane-wise. Fast domain −707 ≤ x ≤ 709: there 2^(k >> 7) is normal (−1021 ≤ e ≤ 1022), so
  ;; `scale` is one multiplication (its first branch).
  (func $dm_exp2 (param $x v128) (result v128)
    (local $kd v128) (local $kf v128) (local $r v128) (local $r2 v128) (local $p v128) (local $t v128) (local $k v128) (local $j v128)
    (local $a i32) (local $b i32)
    (if (i32.eqz (i64x2.all_true (v128.and
          (f64x2.ge (local.get $x) (f64x2.splat (f64.const -707)))
          (f64x2.le (local.get $x) (f64x2.splat (f64.const 709))))))
      (then (return
        (f64x2.replace_lane 1
          (f64x2.splat (call $dm_exp (f64x2.extract_lane 0 (local.get $x))))
          (call $dm_exp (f64x2.extract_lane 1 (local.get $x)))))))
    ;; kd = x·128/ln 2 + 1.5·2^52 holds k in its low word (two's complement: |k| < 2^18), kf = kd − 1.5·2^52
    (local.set $kd (f64x2.add (f64x2.mul (local.get $x) (f64x2.splat (f64.const 0x1.71547652b82fep+7))) (f64x2.splat (f64.const 0x1.8p+52))))
    (local.set $kf (f64x2.sub (local.get $kd) (f64x2.splat (f64.const 0x1.8p+52))))
    (local.set $r (f64x2.sub
      (f64x2.sub (local.get $x) (f64x2.mul (local.get $kf) (f64x2.splat (f64.const 0x1.62e42fef8p-8))))
      (f64x2.mul (local.get $kf) (f64x2.splat (f64.const 0x1.1cf79abc9e3b4p-43)))))
    (local.set $j (i32x4.shl (v128.and (local.get $kd) (i32x4.splat (i32.const 127))) (i32.const 4)))   ;; i32 lanes 0, 2
    ;; 2^e, e = k >> 7: (e + 1023) << 20 moved from i32 lanes 0, 2 into the high words (lanes 1, 3), low words 0
    (local.set $k (i8x16.shuffle 16 17 18 19 0 1 2 3 16 17 18 19 8 9 10 11
      (i32x4.shl (i32x4.add (i32x4.shr_s (local.get $kd) (i32.const 7)) (i32x4.splat (i32.const 1023))) (i32.const 20))
      (v128.const i64x2 0 0)))
    (local.set $r2 (f64x2.mul (local.get $r) (local.get $r)))
    (local.set $p (f64x2.add
      (f64x2.add (local.get $r)
        (f64x2.mul (local.get $r2) (f64x2.add (f64x2.splat (f64.const 0.5)) (f64x2.mul (local.get $r) (f64x2.splat (f64.const 0x1.5555555555555p-3))))))
      (f64x2.mul (f64x2.mul (local.get $r2) (local.get $r2))
        (f64x2.add
          (f64x2.add (f64x2.splat (f64.const 0x1.5555555555555p-5)) (f64x2.mul (local.get $r) (f64x2.splat (f64.const 0x1.1111111111111p-7))))
          (f64x2.mul (local.get $r2) (f64x2.splat (f64.const 0x1.6c16c16c16c17p-10)))))))
    ;; T_HI and T_LO of each lane, loaded into their lanes
    (local.set $a (i32x4.extract_lane 0 (local.get $j)))
    (local.set $b (i32x4.extract_lane 2 (local.get $j)))
    (local.set $t (v128.load64_lane 1 (local.get $b) (v128.load64_zero (local.get $a))))
    ;; (t + (T_LO + t·p))·2^e, e = k >> 7
    (f64x2.mul
      (f64x2.add (local.get $t)
        (f64x2.add (v128.load64_lane offset=8 1 (local.get $b) (v128.load64_zero offset=8 (local.get $a)))
          (f64x2.mul (local.get $t) (local.get $p))))
      (local.get $k)))

  ;; detLog1p lane-wise. Fast domain −0.5 ≤ x ≤ 2^999: 1 + x needs no scaling in the log kernel.
  ;; The series (|x| < 2^−7; x itself below 2^−54) is computed where a lane needs it, the kernel
  ;; unless no lane does, and each lane takes the one its scalar function takes.
  (func $dm_log1p2 (param $x v128) (result v128)
    (local $ax v128) (local $x2 v128) (local $ser v128) (local $u v128) (local $bv v128) (local $d v128)
    (local $t v128) (local $e v128) (local $i v128) (local $kf v128) (local $c v128) (local $vh v128) (local $vl v128) (local $w v128)
    (local $rh v128) (local $rl v128) (local $r v128) (local $rv v128) (local $re v128) (local $r2 v128) (local $p v128)
    (local $i0 i32) (local $i1 i32) (local $ch v128) (local $hi v128) (local $hv v128) (local $he v128)
    (local $lo v128) (local $s v128) (local $a v128) (local $fin v128) (local $small v128)
    (if (i32.eqz (i64x2.all_true (v128.and
          (f64x2.ge (local.get $x) (f64x2.splat (f64.const -0.5)))
          (f64x2.le (local.get $x) (f64x2.splat (f64.const 0x1p+999))))))
      (then (return
        (f64x2.replace_lane 1
          (f64x2.splat (call $dm_log1p (f64x2.extract_lane 0 (local.get $x))))
          (call $dm_log1p (f64x2.extract_lane 1 (local.get $x)))))))
    ;; the series, where a lane needs it (|x| < 2^−7; x itself below 2^−54)
    (local.set $ax (f64x2.abs (local.get $x)))
    (local.set $small (f64x2.lt (local.get $ax) (f64x2.splat (f64.const 0x1p-7))))
    (if (v128.any_true (local.get $small))
      (then
        (local.set $x2 (f64x2.mul (local.get $x) (local.get $x)))
        (local.set $ser (f64x2.add (local.get $x) (f64x2.mul (local.get $x2)
          (f64x2.add (f64x2.add (f64x2.splat (f64.const -0.5)) (f64x2.mul (local.get $x) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (f64x2.mul (local.get $x2)
              (f64x2.add (f64x2.add (f64x2.splat (f64.const -0.25)) (f64x2.mul (local.get $x) (f64x2.splat (f64.const 0x1.999999999999ap-3))))
                (f64x2.mul (local.get $x2)
                  (f64x2.add (f64x2.add (f64x2.splat (f64.const -0x1.5555555555555p-3)) (f64x2.mul (local.get $x) (f64x2.splat (f64.const 0x1.2492492492492p-3))))
                    (f64x2.mul (local.get $x2) (f64x2.add (f64x2.splat (f64.const -0.125)) (f64x2.mul (local.get $x) (f64x2.splat (f64.const 0x1.c71c71c71c71cp-4)))))))))))))
        (local.set $ser (v128.bitselect (local.get $x) (local.get $ser) (f64x2.lt (local.get $ax) (f64x2.splat (f64.const 0x1p-54)))))
        (if (i64x2.all_true (local.get $small)) (then (return (local.get $ser))))))
    ;; the kernel on u = 1 + x (two-sum: 1 + x = u + d)
    (local.set $u (f64x2.add (f64x2.splat (f64.const 1)) (local.get $x)))
    (local.set $bv (f64x2.sub (local.get $u) (f64x2.splat (f64.const 1))))
    (local.set $d (f64x2.add (f64x2.sub (f64x2.splat (f64.const 1)) (f64x2.sub (local.get $u) (local.get $bv))) (f64x2.sub (local.get $x) (local.get $bv))))
    ;; in i32 lanes 1 and 3 (the high words): t = high word − 0x3fe6a000, e = t >> 20, byte offset ((t >> 11) & 508)·8
    (local.set $t (i32x4.sub (local.get $u) (i32x4.splat (i32.const 0x3fe6a000))))
    (local.set $e (i32x4.shr_s (local.get $t) (i32.const 20)))
    (local.set $i (i32x4.shl (v128.and (i32x4.shr_s (local.get $t) (i32.const 11)) (i32x4.splat (i32.const 508))) (i32.const 3)))
    (local.set $kf (f64x2.convert_low_i32x4_s (i8x16.shuffle 4 5 6 7 12 13 14 15 4 5 6 7 4 5 6 7 (local.get $e) (local.get $e))))
    ;; the table offsets of the two lanes
    (local.set $i0 (i32x4.extract_lane 1 (local.get $i)))
    (local.set $i1 (i32x4.extract_lane 3 (local.get $i)))
    (local.set $c (f64x2.mul (f64x2.splat (f64.const 513)) (local.get $u)))
    (local.set $vh (f64x2.sub (local.get $c) (f64x2.sub (local.get $c) (local.get $u))))
    (local.set $vl (f64x2.sub (local.get $u) (local.get $vh)))
    (local.set $w (f64x2.mul (v128.load64_lane offset=2048 1 (local.get $i1) (v128.load64_zero offset=2048 (local.get $i0)))   ;; LOG_INVC
      ;; 2^−e: (1023 − e) << 20 in the high words, low words 0
      (v128.and (i32x4.shl (i32x4.sub (i32x4.splat (i32.const 1023)) (local.get $e)) (i32.const 20)) (v128.const i32x4 0 -1 0 -1))))
    (local.set $rh (f64x2.sub (f64x2.mul (local.get $vh) (local.get $w)) (f64x2.splat (f64.const 1))))
    (local.set $rl (f64x2.mul (local.get $vl) (local.get $w)))
    (local.set $r (f64x2.add (local.get $rh) (local.get $rl)))
    (local.set $rv (f64x2.sub (local.get $r) (local.get $rh)))
    (local.set $re (f64x2.add (f64x2.sub (local.get $rh) (f64x2.sub (local.get $r) (local.get $rv))) (f64x2.sub (local.get $rl) (local.get $rv))))
    (local.set $r2 (f64x2.mul (local.get $r) (local.get $r)))
    (local.set $p (f64x2.mul (local.get $r2)
      (f64x2.add (f64x2.add (f64x2.splat (f64.const -0.5)) (f64x2.mul (local.get $r) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
        (f64x2.mul (local.get $r2)
          (f64x2.add (f64x2.add (f64x2.splat (f64.const -0.25)) (f64x2.mul (local.get $r) (f64x2.splat (f64.const 0x1.999999999999ap-3))))
            (f64x2.mul (local.get $r2)
              (f64x2.sub (f64x2.add (f64x2.splat (f64.const -0x1.5555555555555p-3)) (f64x2.mul (local.get $r) (f64x2.splat (f64.const 0x1.2492492492492p-3))))
                (f64x2.mul (f64x2.splat (f64.const 0.125)) (local.get $r2)))))))))
    (local.set $ch (v128.load64_lane offset=2056 1 (local.get $i1) (v128.load64_zero offset=2056 (local.get $i0))))   ;; LOG_C_HI
    (local.set $hi (f64x2.add (local.get $ch) (local.get $r)))
    (local.set $hv (f64x2.sub (local.get $hi) (local.get $ch)))
    (local.set $he (f64x2.add (f64x2.sub (local.get $ch) (f64x2.sub (local.get $hi) (local.get $hv))) (f64x2.sub (local.get $r) (local.get $hv))))
    (local.set $lo (f64x2.add (f64x2.add (f64x2.add (local.get $he)
      (v128.load64_lane offset=2064 1 (local.get $i1) (v128.load64_zero offset=2064 (local.get $i0)))) (local.get $re)) (local.get $p)))   ;; LOG_C_LO
    ;; + d/u where d ≠ 0
    (local.set $lo (f64x2.add (local.get $lo)
      (v128.bitselect (f64x2.splat (f64.const 0)) (f64x2.div (local.get $d) (local.get $u)) (f64x2.eq (local.get $d) (f64x2.splat (f64.const 0))))))
    ;; k·ln 2 + (hi + lo) (hi + lo where k = 0)
    (local.set $a (f64x2.mul (local.get $kf) (f64x2.splat (f64.const 0x1.62e42feep-1))))
    (local.set $s (f64x2.add (local.get $a) (local.get $hi)))
    (local.set $fin (f64x2.add (local.get $s)
      (f64x2.add (f64x2.sub (local.get $hi) (f64x2.sub (local.get $s) (local.get $a)))
        (f64x2.add (local.get $lo) (f64x2.mul (local.get $kf) (f64x2.splat (f64.const 0x1.a39ef35793c76p-33)))))))
    (local.set $fin (v128.bitselect (f64x2.add (local.get $hi) (local.get $lo)) (local.get $fin) (f64x2.eq (local.get $kf) (f64x2.splat (f64.const 0)))))
    (v128.bitselect (local.get $ser) (local.get $fin) (local.get $small)))

  ;; The pair functions over arrays (for the tests): dst[i] = f(src[i]) for i < 2·pairs, two at a time.
  (func (export "detExpPairs") (param $src i32) (param $dst i32) (param $pairs i32)
    (block $done (loop $l
      (br_if $done (i32.eqz (local.get $pairs)))
      (v128.store (local.get $dst) (call $dm_exp2 (v128.load (local.get $src))))
      (local.set $src (i32.add (local.get $src) (i32.const 16)))
      (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
      (local.set $pairs (i32.sub (local.get $pairs) (i32.const 1)))
      (br $l))))
  (func (export "detLog1pPairs") (param $src i32) (param $dst i32) (param $pairs i32)
    (block $done (loop $l
      (br_if $done (i32.eqz (local.get $pairs)))
      (v128.store (local.get $dst) (call $dm_log1p2 (v128.load (local.get $src))))
      (local.set $src (i32.add (local.get $src) (i32.const 16)))
      (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
      (local.set $pairs (i32.sub (local.get $pairs) (i32.const 1)))
      (br $l))))

  ;; Sums over arrays, one term at a time in index order from +0 as a JavaScript loop adds them
  ;; (`let s = 0; for (…) s += f(x[i])`), the terms two at a time: the same bits as that loop. For
  ;; the PSIS of LOO (mcmc/diagnostics/internal/psis.ts), through src/compile/det-sums.ts.
  ;; Σ detExp(x[i] − shift), i < n.
  (func $dm_expSumShifted (export "detExpSumShifted") (param $src i32) (param $n i32) (param $shift f64) (result f64)
    (local $s f64) (local $v v128) (local $sh v128) (local $end i32)
    (local.set $sh (f64x2.splat (local.get $shift)))
    (local.set $end (i32.add (local.get $src) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (block $done (loop $l
      (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
      (local.set $v (call $dm_exp2 (f64x2.sub (v128.load (local.get $src)) (local.get $sh))))
      (local.set $s (f64.add (f64.add (local.get $s) (f64x2.extract_lane 0 (local.get $v))) (f64x2.extract_lane 1 (local.get $v))))
      (local.set $src (i32.add (local.get $src) (i32.const 16)))
      (br $l)))
    (if (i32.and (local.get $n) (i32.const 1))
      (then (local.set $s (f64.add (local.get $s) (call $dm_exp (f64.sub (f64.load (local.get $src)) (local.get $shift)))))))
    (local.get $s))
  ;; Σ detLog1p(−b·z[i]), i < n ((−b)·z[i], as JavaScript's `-b * z[i]`).
  (func $dm_log1pSumScaled (export "detLog1pSumScaled") (param $src i32) (param $n i32) (param $b f64) (result f64)
    (local $s f64) (local $v v128) (local $mb v128) (local $end i32)
    (local.set $mb (f64x2.splat (f64.neg (local.get $b))))
    (local.set $end (i32.add (local.get $src) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (block $done (loop $l
      (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
      (local.set $v (call $dm_log1p2 (f64x2.mul (local.get $mb) (v128.load (local.get $src)))))
      (local.set $s (f64.add (f64.add (local.get $s) (f64x2.extract_lane 0 (local.get $v))) (f64x2.extract_lane 1 (local.get $v))))
      (local.set $src (i32.add (local.get $src) (i32.const 16)))
      (br $l)))
    (if (i32.and (local.get $n) (i32.const 1))
      (then (local.set $s (f64.add (local.get $s) (call $dm_log1p (f64.mul (f64.neg (local.get $b)) (f64.load (local.get $src))))))))
    (local.get $s))
  ;; The sums above for a grid of m scales at once (the Pareto fit's grid): dst[j] = Σᵢ detLog1p(−b[j]·z[i]),
  ;; j < m, each sum as detLog1pSumScaled computes it (one call instead of m, z copied in once).
  (func (export "detLog1pSumsGrid") (param $src i32) (param $n i32) (param $b i32) (param $m i32) (param $dst i32)
    (block $done (loop $l
      (br_if $done (i32.eqz (local.get $m)))
      (f64.store (local.get $dst) (call $dm_log1pSumScaled (local.get $src) (local.get $n) (f64.load (local.get $b))))
      (local.set $b (i32.add (local.get $b) (i32.const 8)))
      (local.set $dst (i32.add (local.get $dst) (i32.const 8)))
      (local.set $m (i32.sub (local.get $m) (i32.const 1)))
      (br $l))))
  ;; dst[j] = Σᵢ detExp(x[i] − x[j]) for every j < n, each sum as detExpSumShifted computes it (the
  ;; Pareto fit's grid weights: one call instead of n).
  (func (export "detExpSumsSelfShifted") (param $src i32) (param $n i32) (param $dst i32)
    (local $j i32)
    (block $done (loop $l
      (br_if $done (i32.ge_u (local.get $j) (local.get $n)))
      (f64.store (i32.add (local.get $dst) (i32.shl (local.get $j) (i32.const 3)))
        (call $dm_expSumShifted (local.get $src) (local.get $n) (f64.load (i32.add (local.get $src) (i32.shl (local.get $j) (i32.const 3))))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $l))))
  ;; LOO's last pass (mcmc/diagnostics/loo.ts): t[i] = (lw[i] − norm) + ll[i], written over lw, the
  ;; maxima of t and of ll over their non-NaN values (as `if (v > max) max = v` from −∞; of equal
  ;; values only ±0 differ, and no sum depends on which), stored at maxOut and maxOut + 8, and
  ;; Σ detExp(t[i] − max t) returned, as detExpSumShifted computes it.
  (func (export "detExpSumAfterAdd") (param $lw i32) (param $ll i32) (param $n i32) (param $norm f64) (param $maxOut i32) (result f64)
    (local $p i32) (local $q i32) (local $end i32) (local $v v128) (local $l v128) (local $nv v128)
    (local $mt v128) (local $ml v128) (local $a f64) (local $b f64) (local $t f64) (local $x f64)
    (local.set $nv (f64x2.splat (local.get $norm)))
    (local.set $a (f64.const -inf))
    (local.set $mt (f64x2.splat (local.get $a)))
    (local.set $ml (local.get $mt))
    (local.set $p (local.get $lw))
    (local.set $q (local.get $ll))
    (local.set $end (i32.add (local.get $lw) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (block $done (loop $l1
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $l (v128.load (local.get $q)))
      (local.set $v (f64x2.add (f64x2.sub (v128.load (local.get $p)) (local.get $nv)) (local.get $l)))
      (v128.store (local.get $p) (local.get $v))
      (local.set $mt (v128.bitselect (local.get $v) (local.get $mt) (f64x2.gt (local.get $v) (local.get $mt))))
      (local.set $ml (v128.bitselect (local.get $l) (local.get $ml) (f64x2.gt (local.get $l) (local.get $ml))))
      (local.set $p (i32.add (local.get $p) (i32.const 16)))
      (local.set $q (i32.add (local.get $q) (i32.const 16)))
      (br $l1)))
    ;; the lanes' maxima (neither is NaN), then the odd last term
    (local.set $a (f64x2.extract_lane 0 (local.get $mt)))
    (local.set $b (f64x2.extract_lane 1 (local.get $mt)))
    (local.set $t (select (local.get $b) (local.get $a) (f64.gt (local.get $b) (local.get $a))))
    (local.set $a (f64x2.extract_lane 0 (local.get $ml)))
    (local.set $b (f64x2.extract_lane 1 (local.get $ml)))
    (local.set $x (select (local.get $b) (local.get $a) (f64.gt (local.get $b) (local.get $a))))
    (if (i32.and (local.get $n) (i32.const 1))
      (then
        (local.set $a (f64.load (local.get $q)))
        (local.set $b (f64.add (f64.sub (f64.load (local.get $p)) (local.get $norm)) (local.get $a)))
        (f64.store (local.get $p) (local.get $b))
        (if (f64.gt (local.get $b) (local.get $t)) (then (local.set $t (local.get $b))))
        (if (f64.gt (local.get $a) (local.get $x)) (then (local.set $x (local.get $a))))))
    (f64.store (local.get $maxOut) (local.get $t))
    (f64.store offset=8 (local.get $maxOut) (local.get $x))
    (call $dm_expSumShifted (local.get $lw) (local.get $n) (local.get $t)))

