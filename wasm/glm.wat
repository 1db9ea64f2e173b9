;; The two passes over X of the fused GLM kernels (src/compile/glm.ts), and a machine-peak loop.
;; Hand-written; `npm run build:wasm` assembles it into src/compile/glm.wasm.ts.
;;
;; X lives in the kernel's own memory interleaved by row pairs: pair p (rows 2p and 2p + 1),
;; column j is the f64x2 (X[2p, j], X[2p + 1, j]) at byte xi + (p·d + j)·16 (an odd last row is
;; paired with a row of zeros). Lane k of every vector is row 2p + k, so each lane runs exactly
;; the scalar loop of the JavaScript mirror (`etaJs`, `xtgJs` in src/compile/glm.ts) — IEEE-754
;; f64 mul then add, never fused — and the results are the same bits:
;;   eta: η[i] = (Σⱼ X[i, j]·β[j], from +0, j ascending) + α;
;;   xtg: G[j, lane] += X[2p + lane, j]·g[2p + lane] for pairs p ascending (two partial sums per
;;        column, even and odd rows, which the caller adds once at the end).
;; Four pairs per iteration give independent chains (the order within each lane is unchanged).
;;
;; `vg` runs a whole value and gradient: per row block the η pass, the rows' ℓ and ∂ℓ/∂η with the
;; library's deterministic exp and log1p in WebAssembly (wasm/detmath.wat, spliced in below by the
;; build, with its tables and constants at bytes [0, 8192) of the memory), and the Xᵀg pass, so no block goes back
;; to JavaScript. Its row loops are glm.ts's JavaScript row loops operation for operation.
(module
  (import "env" "memory" (memory 1))

  ;; #include detmath.wat

  ;; The value and gradient over all blocks: family 0 normal_id, 1 bernoulli_logit, 2 poisson_log;
  ;; y at $y (n doubles); reads α and σ from $io, $io + 8 and writes there Σ ℓ-part (acc) and ∂/∂α
  ;; (ga); ∂/∂β (the two partial sums per column added) to $gb (glm.ts finishes). Everything that
  ;; glm.ts's JavaScript path does with doubles per call is here, and all parameters are i32:
  ;; until V8 optimizes the caller, each double it handles is allocated, and a compiled gradient
  ;; must not allocate (test/distributions/compile-log-density.test.ts).
  (func (export "vg")
    (param $family i32) (param $xi i32) (param $beta i32) (param $eta i32) (param $y i32) (param $g i32) (param $gsum i32)
    (param $P i32) (param $n i32) (param $d i32) (param $block i32) (param $io i32) (param $gb i32)
    (local $alpha f64) (local $invSigma f64) (local $p0 i32) (local $j i32) (local $p1 i32) (local $i i32) (local $end i32) (local $o i32)
    (local $acc f64) (local $ga f64) (local $e f64) (local $a f64) (local $ex f64) (local $l f64) (local $t f64)
    (local $yi f64) (local $gi f64) (local $z f64) (local $ev v128) (local $yv v128) (local $exv v128) (local $tv v128) (local $gv v128)
    (local.set $alpha (f64.load (local.get $io)))
    (local.set $invSigma (f64.div (f64.const 1) (f64.load offset=8 (local.get $io))))
    ;; G = 0 (two partial sums per column); the padding row of an odd n sends nothing
    (block $z_done (loop $z
      (br_if $z_done (i32.ge_u (local.get $j) (local.get $d)))
      (v128.store (i32.add (local.get $gsum) (i32.shl (local.get $j) (i32.const 4))) (v128.const i64x2 0 0))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $z)))
    (f64.store (i32.add (local.get $g) (i32.shl (i32.sub (i32.shl (local.get $P) (i32.const 1)) (i32.const 1)) (i32.const 3))) (f64.const 0))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $p0) (local.get $P)))
        (local.set $p1 (i32.add (local.get $p0) (local.get $block)))
        (if (i32.gt_u (local.get $p1) (local.get $P)) (then (local.set $p1 (local.get $P))))
        (call $eta (local.get $xi) (local.get $beta) (local.get $eta) (local.get $p0) (local.get $p1) (local.get $d) (local.get $alpha))
        (local.set $end (i32.shl (local.get $p1) (i32.const 1)))
        (if (i32.gt_u (local.get $end) (local.get $n)) (then (local.set $end (local.get $n))))
        (local.set $i (i32.shl (local.get $p0) (i32.const 1)))
        ;; two rows at a time (the lanes of detmath's f64x2 functions), the sums still in row order
        (block $pairs_done
          (loop $pairs
            (br_if $pairs_done (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $end)))
            (local.set $o (i32.shl (local.get $i) (i32.const 3)))
            (local.set $ev (v128.load (i32.add (local.get $eta) (local.get $o))))
            (local.set $yv (v128.load (i32.add (local.get $y) (local.get $o))))
            (if (i32.eq (local.get $family) (i32.const 1))
              (then
                (local.set $exv (call $dm_exp2 (f64x2.neg
                  (v128.bitselect (f64x2.neg (local.get $ev)) (local.get $ev) (f64x2.lt (local.get $ev) (f64x2.splat (f64.const 0)))))))
                (local.set $tv (v128.bitselect (f64x2.neg (local.get $ev)) (local.get $ev) (f64x2.eq (local.get $yv) (f64x2.splat (f64.const 1)))))
                (local.set $tv (f64x2.add
                  (v128.bitselect (local.get $tv) (f64x2.splat (f64.const 0)) (f64x2.gt (local.get $tv) (f64x2.splat (f64.const 0))))
                  (call $dm_log1p2 (local.get $exv))))
                (local.set $acc (f64.sub (f64.sub (local.get $acc) (f64x2.extract_lane 0 (local.get $tv))) (f64x2.extract_lane 1 (local.get $tv))))
                (local.set $gv (f64x2.sub (local.get $yv)
                  (f64x2.div
                    (v128.bitselect (f64x2.splat (f64.const 1)) (local.get $exv) (f64x2.ge (local.get $ev) (f64x2.splat (f64.const 0))))
                    (f64x2.add (f64x2.splat (f64.const 1)) (local.get $exv))))))
              (else
                (if (i32.eq (local.get $family) (i32.const 2))
                  (then
                    (local.set $exv (call $dm_exp2 (local.get $ev)))
                    (local.set $tv (f64x2.sub (f64x2.mul (local.get $yv) (local.get $ev)) (local.get $exv)))
                    (local.set $gv (f64x2.sub (local.get $yv) (local.get $exv))))
                  (else
                    (local.set $gv (f64x2.mul (f64x2.sub (local.get $yv) (local.get $ev)) (f64x2.splat (local.get $invSigma))))
                    (local.set $tv (f64x2.mul (local.get $gv) (local.get $gv)))
                    (local.set $gv (f64x2.mul (local.get $gv) (f64x2.splat (local.get $invSigma))))))
                (local.set $acc (f64.add (f64.add (local.get $acc) (f64x2.extract_lane 0 (local.get $tv))) (f64x2.extract_lane 1 (local.get $tv))))))
            (v128.store (i32.add (local.get $g) (local.get $o)) (local.get $gv))
            (local.set $ga (f64.add (f64.add (local.get $ga) (f64x2.extract_lane 0 (local.get $gv))) (f64x2.extract_lane 1 (local.get $gv))))
            (local.set $i (i32.add (local.get $i) (i32.const 2)))
            (br $pairs)))
        ;; the last row of an odd n, one at a time
        (block $rows_done
          (loop $rows
            (br_if $rows_done (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $o (i32.shl (local.get $i) (i32.const 3)))
            (local.set $e (f64.load (i32.add (local.get $eta) (local.get $o))))
            (local.set $yi (f64.load (i32.add (local.get $y) (local.get $o))))
            (if (i32.eq (local.get $family) (i32.const 1))
              (then
                ;; −softplus(t), t = ∓η: ex = e^−|η|, ℓ = −(max(t, 0) + log1p(ex))
                (local.set $a (select (f64.neg (local.get $e)) (local.get $e) (f64.lt (local.get $e) (f64.const 0))))
                (local.set $ex (call $dm_exp (f64.neg (local.get $a))))
                (local.set $l (call $dm_log1p (local.get $ex)))
                (local.set $t (select (f64.neg (local.get $e)) (local.get $e) (f64.eq (local.get $yi) (f64.const 1))))
                (local.set $acc (f64.sub (local.get $acc)
                  (f64.add (select (local.get $t) (f64.const 0) (f64.gt (local.get $t) (f64.const 0))) (local.get $l))))
                (local.set $gi (f64.sub (local.get $yi)
                  (f64.div (select (f64.const 1) (local.get $ex) (f64.ge (local.get $e) (f64.const 0))) (f64.add (f64.const 1) (local.get $ex))))))
              (else
                (if (i32.eq (local.get $family) (i32.const 2))
                  (then
                    (local.set $ex (call $dm_exp (local.get $e)))
                    (local.set $acc (f64.add (local.get $acc) (f64.sub (f64.mul (local.get $yi) (local.get $e)) (local.get $ex))))
                    (local.set $gi (f64.sub (local.get $yi) (local.get $ex))))
                  (else
                    (local.set $z (f64.mul (f64.sub (local.get $yi) (local.get $e)) (local.get $invSigma)))
                    (local.set $acc (f64.add (local.get $acc) (f64.mul (local.get $z) (local.get $z))))
                    (local.set $gi (f64.mul (local.get $z) (local.get $invSigma)))))))
            (f64.store (i32.add (local.get $g) (local.get $o)) (local.get $gi))
            (local.set $ga (f64.add (local.get $ga) (local.get $gi)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $rows)))
        (call $xtg (local.get $xi) (local.get $g) (local.get $gsum) (local.get $p0) (local.get $p1) (local.get $d))
        (local.set $p0 (local.get $p1))
        (br $blocks)))
    ;; ∂/∂β[j] = even-row sum + odd-row sum
    (local.set $j (i32.const 0))
    (block $b_done (loop $b
      (br_if $b_done (i32.ge_u (local.get $j) (local.get $d)))
      (local.set $o (i32.add (local.get $gsum) (i32.shl (local.get $j) (i32.const 4))))
      (f64.store (i32.add (local.get $gb) (i32.shl (local.get $j) (i32.const 3)))
        (f64.add (f64.load (local.get $o)) (f64.load offset=8 (local.get $o))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $b)))
    (f64.store (local.get $io) (local.get $acc))
    (f64.store offset=8 (local.get $io) (local.get $ga)))

  ;; η for the pairs [p0, p1): eta + p·16 ← (Σⱼ xi[p, j]·β[j]) + α, per lane.
  (func $eta (export "eta")
    (param $xi i32) (param $beta i32) (param $eta i32) (param $p0 i32) (param $p1 i32) (param $d i32) (param $alpha f64)
    (local $p i32) (local $x i32) (local $bj i32) (local $bend i32) (local $stride i32)
    (local $b v128) (local $al v128) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $stride (i32.shl (local.get $d) (i32.const 4)))
    (local.set $bend (i32.add (local.get $beta) (i32.shl (local.get $d) (i32.const 3))))
    (local.set $al (f64x2.splat (local.get $alpha)))
    (local.set $p (local.get $p0))
    (block $done4
      (loop $four
        (br_if $done4 (i32.gt_u (i32.add (local.get $p) (i32.const 4)) (local.get $p1)))
        (local.set $x (i32.add (local.get $xi) (i32.mul (local.get $p) (local.get $stride))))
        (local.set $a0 (v128.const i64x2 0 0))
        (local.set $a1 (v128.const i64x2 0 0))
        (local.set $a2 (v128.const i64x2 0 0))
        (local.set $a3 (v128.const i64x2 0 0))
        (local.set $bj (local.get $beta))
        (loop $cols
          (local.set $b (v128.load64_splat (local.get $bj)))
          (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (v128.load (local.get $x)) (local.get $b))))
          (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (v128.load (i32.add (local.get $x) (local.get $stride))) (local.get $b))))
          (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (v128.load (i32.add (local.get $x) (i32.shl (local.get $stride) (i32.const 1)))) (local.get $b))))
          (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (v128.load (i32.add (local.get $x) (i32.mul (local.get $stride) (i32.const 3)))) (local.get $b))))
          (local.set $x (i32.add (local.get $x) (i32.const 16)))
          (local.set $bj (i32.add (local.get $bj) (i32.const 8)))
          (br_if $cols (i32.lt_u (local.get $bj) (local.get $bend))))
        (local.set $x (i32.add (local.get $eta) (i32.shl (local.get $p) (i32.const 4))))
        (v128.store (local.get $x) (f64x2.add (local.get $a0) (local.get $al)))
        (v128.store offset=16 (local.get $x) (f64x2.add (local.get $a1) (local.get $al)))
        (v128.store offset=32 (local.get $x) (f64x2.add (local.get $a2) (local.get $al)))
        (v128.store offset=48 (local.get $x) (f64x2.add (local.get $a3) (local.get $al)))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (br $four)))
    (block $done1
      (loop $one
        (br_if $done1 (i32.ge_u (local.get $p) (local.get $p1)))
        (local.set $x (i32.add (local.get $xi) (i32.mul (local.get $p) (local.get $stride))))
        (local.set $a0 (v128.const i64x2 0 0))
        (local.set $bj (local.get $beta))
        (loop $cols1
          (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (v128.load (local.get $x)) (v128.load64_splat (local.get $bj)))))
          (local.set $x (i32.add (local.get $x) (i32.const 16)))
          (local.set $bj (i32.add (local.get $bj) (i32.const 8)))
          (br_if $cols1 (i32.lt_u (local.get $bj) (local.get $bend))))
        (v128.store (i32.add (local.get $eta) (i32.shl (local.get $p) (i32.const 4))) (f64x2.add (local.get $a0) (local.get $al)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $one))))

  ;; G[j] += xi[p, j]·g[p] (f64x2, lane by lane) for the pairs [p0, p1) in ascending order.
  (func $xtg (export "xtg")
    (param $xi i32) (param $g i32) (param $gsum i32) (param $p0 i32) (param $p1 i32) (param $d i32)
    (local $p i32) (local $x i32) (local $gj i32) (local $gend i32) (local $stride i32)
    (local $g0 v128) (local $g1 v128) (local $g2 v128) (local $g3 v128) (local $s v128) (local $gp i32)
    (local.set $stride (i32.shl (local.get $d) (i32.const 4)))
    (local.set $gend (i32.add (local.get $gsum) (local.get $stride)))
    (local.set $p (local.get $p0))
    (block $done4
      (loop $four
        (br_if $done4 (i32.gt_u (i32.add (local.get $p) (i32.const 4)) (local.get $p1)))
        (local.set $gp (i32.add (local.get $g) (i32.shl (local.get $p) (i32.const 4))))
        (local.set $g0 (v128.load (local.get $gp)))
        (local.set $g1 (v128.load offset=16 (local.get $gp)))
        (local.set $g2 (v128.load offset=32 (local.get $gp)))
        (local.set $g3 (v128.load offset=48 (local.get $gp)))
        (local.set $x (i32.add (local.get $xi) (i32.mul (local.get $p) (local.get $stride))))
        (local.set $gj (local.get $gsum))
        (loop $cols
          (local.set $s (f64x2.add (v128.load (local.get $gj)) (f64x2.mul (v128.load (local.get $x)) (local.get $g0))))
          (local.set $s (f64x2.add (local.get $s) (f64x2.mul (v128.load (i32.add (local.get $x) (local.get $stride))) (local.get $g1))))
          (local.set $s (f64x2.add (local.get $s) (f64x2.mul (v128.load (i32.add (local.get $x) (i32.shl (local.get $stride) (i32.const 1)))) (local.get $g2))))
          (local.set $s (f64x2.add (local.get $s) (f64x2.mul (v128.load (i32.add (local.get $x) (i32.mul (local.get $stride) (i32.const 3)))) (local.get $g3))))
          (v128.store (local.get $gj) (local.get $s))
          (local.set $x (i32.add (local.get $x) (i32.const 16)))
          (local.set $gj (i32.add (local.get $gj) (i32.const 16)))
          (br_if $cols (i32.lt_u (local.get $gj) (local.get $gend))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (br $four)))
    (block $done1
      (loop $one
        (br_if $done1 (i32.ge_u (local.get $p) (local.get $p1)))
        (local.set $g0 (v128.load (i32.add (local.get $g) (i32.shl (local.get $p) (i32.const 4)))))
        (local.set $x (i32.add (local.get $xi) (i32.mul (local.get $p) (local.get $stride))))
        (local.set $gj (local.get $gsum))
        (loop $cols1
          (v128.store (local.get $gj) (f64x2.add (v128.load (local.get $gj)) (f64x2.mul (v128.load (local.get $x)) (local.get $g0))))
          (local.set $x (i32.add (local.get $x) (i32.const 16)))
          (local.set $gj (i32.add (local.get $gj) (i32.const 16)))
          (br_if $cols1 (i32.lt_u (local.get $gj) (local.get $gend))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $one))))

  ;; The machine's peak for this arithmetic (bench/glm.ts): n iterations of 10 independent
  ;; f64x2 chains a ← a·m + c (a mul then an add, not fused: 40 flops per iteration), in registers.
  ;; The chains start apart, so no engine can merge them; m < 1 keeps them finite and normal.
  (func (export "peak") (param $n i32) (param $mul f64) (param $add f64) (result f64)
    (local $m v128) (local $c v128) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $a4 v128) (local $a5 v128) (local $a6 v128) (local $a7 v128) (local $a8 v128) (local $a9 v128)
    (local.set $m (f64x2.splat (local.get $mul)))
    (local.set $c (f64x2.splat (local.get $add)))
    (local.set $a0 (f64x2.splat (f64.const 1)))
    (local.set $a1 (f64x2.splat (f64.const 2)))
    (local.set $a2 (f64x2.splat (f64.const 3)))
    (local.set $a3 (f64x2.splat (f64.const 4)))
    (local.set $a4 (f64x2.splat (f64.const 5)))
    (local.set $a5 (f64x2.splat (f64.const 6)))
    (local.set $a6 (f64x2.splat (f64.const 7)))
    (local.set $a7 (f64x2.splat (f64.const 8)))
    (local.set $a8 (f64x2.splat (f64.const 9)))
    (local.set $a9 (f64x2.splat (f64.const 10)))
    (block $done
      (loop $it
        (br_if $done (i32.eqz (local.get $n)))
        (local.set $a0 (f64x2.add (f64x2.mul (local.get $a0) (local.get $m)) (local.get $c)))
        (local.set $a1 (f64x2.add (f64x2.mul (local.get $a1) (local.get $m)) (local.get $c)))
        (local.set $a2 (f64x2.add (f64x2.mul (local.get $a2) (local.get $m)) (local.get $c)))
        (local.set $a3 (f64x2.add (f64x2.mul (local.get $a3) (local.get $m)) (local.get $c)))
        (local.set $a4 (f64x2.add (f64x2.mul (local.get $a4) (local.get $m)) (local.get $c)))
        (local.set $a5 (f64x2.add (f64x2.mul (local.get $a5) (local.get $m)) (local.get $c)))
        (local.set $a6 (f64x2.add (f64x2.mul (local.get $a6) (local.get $m)) (local.get $c)))
        (local.set $a7 (f64x2.add (f64x2.mul (local.get $a7) (local.get $m)) (local.get $c)))
        (local.set $a8 (f64x2.add (f64x2.mul (local.get $a8) (local.get $m)) (local.get $c)))
        (local.set $a9 (f64x2.add (f64x2.mul (local.get $a9) (local.get $m)) (local.get $c)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $it)))
    (local.set $a0 (f64x2.add (f64x2.add (f64x2.add (f64x2.add (f64x2.add (f64x2.add (f64x2.add (f64x2.add (f64x2.add (local.get $a0) (local.get $a1)) (local.get $a2)) (local.get $a3)) (local.get $a4)) (local.get $a5)) (local.get $a6)) (local.get $a7)) (local.get $a8)) (local.get $a9)))
    (f64.add (f64x2.extract_lane 0 (local.get $a0)) (f64x2.extract_lane 1 (local.get $a0))))
)
