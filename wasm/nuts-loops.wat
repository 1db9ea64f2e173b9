;; The leaf and merge loops of one NUTS chain with a diagonal metric (mcmc/nuts/stan/nuts-chain.ts),
;; over arrays in the chain's own memory: every pointer is a byte offset, 16-byte aligned, and n
;; is the number of doubles. Hand-written; `npm run build:wasm` assembles it into
;; mcmc/nuts/stan/nuts-loops.wasm.ts.
;;
;; Each function computes exactly the expressions of its JavaScript mirror in
;; mcmc/nuts/stan/nuts-loops.ts, operation for operation, so the results are the same bits:
;; element-wise work runs two lanes at a time (IEEE-754 f64x2 arithmetic, no fused multiply-add),
;; and every sum is accumulated in index order, one element at a time.
(module
  (import "env" "memory" (memory 1))

  ;; First half of a leapfrog step: tp = p + half·g; tq = q + (eps·m)·tp.
  (func (export "kick_drift")
    (param $q i32) (param $p i32) (param $g i32) (param $tq i32) (param $tp i32) (param $m i32)
    (param $eps f64) (param $half f64) (param $n i32)
    (local $i i32) (local $end i32) (local $pair i32) (local $h v128) (local $e v128) (local $pi v128) (local $s f64)
    (local.set $h (f64x2.splat (local.get $half)))
    (local.set $e (f64x2.splat (local.get $eps)))
    (local.set $end (i32.shl (local.get $n) (i32.const 3)))
    (local.set $pair (i32.and (local.get $end) (i32.const -16)))
    (block $done
      (loop $two
        (br_if $done (i32.ge_u (local.get $i) (local.get $pair)))
        (local.set $pi (f64x2.add (v128.load (i32.add (local.get $p) (local.get $i)))
                                  (f64x2.mul (local.get $h) (v128.load (i32.add (local.get $g) (local.get $i))))))
        (v128.store (i32.add (local.get $tp) (local.get $i)) (local.get $pi))
        (v128.store (i32.add (local.get $tq) (local.get $i))
          (f64x2.add (v128.load (i32.add (local.get $q) (local.get $i)))
                     (f64x2.mul (f64x2.mul (local.get $e) (v128.load (i32.add (local.get $m) (local.get $i))))
                                (local.get $pi))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $two)))
    (if (i32.lt_u (local.get $i) (local.get $end))
      (then
        (local.set $s (f64.add (f64.load (i32.add (local.get $p) (local.get $i)))
                               (f64.mul (local.get $half) (f64.load (i32.add (local.get $g) (local.get $i))))))
        (f64.store (i32.add (local.get $tp) (local.get $i)) (local.get $s))
        (f64.store (i32.add (local.get $tq) (local.get $i))
          (f64.add (f64.load (i32.add (local.get $q) (local.get $i)))
                   (f64.mul (f64.mul (local.get $eps) (f64.load (i32.add (local.get $m) (local.get $i))))
                            (local.get $s)))))))

  ;; Second half kick, velocity and kinetic energy: pi = p + half·g; ps = m·pi; p = pOut = pi;
  ;; psOut = ps; stores Σ pi·ps (in index order; the caller halves it) at $sum. (Stored, not
  ;; returned: V8 allocates a number for an f64 a wasm call returns to JavaScript.)
  (func (export "kick_energy")
    (param $p i32) (param $g i32) (param $m i32) (param $pOut i32) (param $psOut i32) (param $half f64) (param $n i32)
    (param $sum i32)
    (local $i i32) (local $end i32) (local $pair i32) (local $h v128) (local $pi v128) (local $ps v128) (local $pp v128)
    (local $kin f64) (local $s f64) (local $t f64)
    (local.set $h (f64x2.splat (local.get $half)))
    (local.set $end (i32.shl (local.get $n) (i32.const 3)))
    (local.set $pair (i32.and (local.get $end) (i32.const -16)))
    (block $done
      (loop $two
        (br_if $done (i32.ge_u (local.get $i) (local.get $pair)))
        (local.set $pi (f64x2.add (v128.load (i32.add (local.get $p) (local.get $i)))
                                  (f64x2.mul (local.get $h) (v128.load (i32.add (local.get $g) (local.get $i))))))
        (local.set $ps (f64x2.mul (v128.load (i32.add (local.get $m) (local.get $i))) (local.get $pi)))
        (v128.store (i32.add (local.get $p) (local.get $i)) (local.get $pi))
        (v128.store (i32.add (local.get $pOut) (local.get $i)) (local.get $pi))
        (v128.store (i32.add (local.get $psOut) (local.get $i)) (local.get $ps))
        (local.set $pp (f64x2.mul (local.get $pi) (local.get $ps)))
        (local.set $kin (f64.add (f64.add (local.get $kin) (f64x2.extract_lane 0 (local.get $pp)))
                                 (f64x2.extract_lane 1 (local.get $pp))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $two)))
    (if (i32.lt_u (local.get $i) (local.get $end))
      (then
        (local.set $s (f64.add (f64.load (i32.add (local.get $p) (local.get $i)))
                               (f64.mul (local.get $half) (f64.load (i32.add (local.get $g) (local.get $i))))))
        (local.set $t (f64.mul (f64.load (i32.add (local.get $m) (local.get $i))) (local.get $s)))
        (f64.store (i32.add (local.get $p) (local.get $i)) (local.get $s))
        (f64.store (i32.add (local.get $pOut) (local.get $i)) (local.get $s))
        (f64.store (i32.add (local.get $psOut) (local.get $i)) (local.get $t))
        (local.set $kin (f64.add (local.get $kin) (f64.mul (local.get $s) (local.get $t))))))
    (f64.store (local.get $sum) (local.get $kin)))

;; Joins pieces A then B: rho = rhoA + rhoB, and 1 when all six no-U-turn sums are positive:
  ;; sEnd·rho, sBeg·rho, sBBeg·(rhoA + pBBeg), sBeg·(rhoA + pBBeg), sEnd·(rhoB + pAEnd),
  ;; sAEnd·(rhoB + pAEnd). Two elements at a time; each sum adds its two products in index order.
  (func (export "join")
    (param $rho i32) (param $rhoA i32) (param $rhoB i32) (param $sBeg i32) (param $sEnd i32)
    (param $pAEnd i32) (param $sAEnd i32) (param $pBBeg i32) (param $sBBeg i32) (param $n i32)
    (result i32)
    (local $i i32) (local $end i32) (local $pair i32)
    (local $ra v128) (local $rb v128) (local $r v128) (local $e1 v128) (local $e2 v128) (local $sb v128) (local $se v128) (local $x v128)
    (local $a f64) (local $b f64) (local $c1 f64) (local $c2 f64) (local $d1 f64) (local $d2 f64)
    (local.set $end (i32.shl (local.get $n) (i32.const 3)))
    (local.set $pair (i32.and (local.get $end) (i32.const -16)))
    (block $done
      (loop $two
        (br_if $done (i32.ge_u (local.get $i) (local.get $pair)))
        (local.set $ra (v128.load (i32.add (local.get $rhoA) (local.get $i))))
        (local.set $rb (v128.load (i32.add (local.get $rhoB) (local.get $i))))
        (local.set $r (f64x2.add (local.get $ra) (local.get $rb)))
        (v128.store (i32.add (local.get $rho) (local.get $i)) (local.get $r))
        (local.set $sb (v128.load (i32.add (local.get $sBeg) (local.get $i))))
        (local.set $se (v128.load (i32.add (local.get $sEnd) (local.get $i))))
        (local.set $e1 (f64x2.add (local.get $ra) (v128.load (i32.add (local.get $pBBeg) (local.get $i)))))
        (local.set $e2 (f64x2.add (local.get $rb) (v128.load (i32.add (local.get $pAEnd) (local.get $i)))))
        (local.set $x (f64x2.mul (local.get $se) (local.get $r)))
        (local.set $a (f64.add (f64.add (local.get $a) (f64x2.extract_lane 0 (local.get $x))) (f64x2.extract_lane 1 (local.get $x))))
        (local.set $x (f64x2.mul (local.get $sb) (local.get $r)))
        (local.set $b (f64.add (f64.add (local.get $b) (f64x2.extract_lane 0 (local.get $x))) (f64x2.extract_lane 1 (local.get $x))))
        (local.set $x (f64x2.mul (v128.load (i32.add (local.get $sBBeg) (local.get $i))) (local.get $e1)))
        (local.set $c1 (f64.add (f64.add (local.get $c1) (f64x2.extract_lane 0 (local.get $x))) (f64x2.extract_lane 1 (local.get $x))))
        (local.set $x (f64x2.mul (local.get $sb) (local.get $e1)))
        (local.set $c2 (f64.add (f64.add (local.get $c2) (f64x2.extract_lane 0 (local.get $x))) (f64x2.extract_lane 1 (local.get $x))))
        (local.set $x (f64x2.mul (local.get $se) (local.get $e2)))
        (local.set $d1 (f64.add (f64.add (local.get $d1) (f64x2.extract_lane 0 (local.get $x))) (f64x2.extract_lane 1 (local.get $x))))
        (local.set $x (f64x2.mul (v128.load (i32.add (local.get $sAEnd) (local.get $i))) (local.get $e2)))
        (local.set $d2 (f64.add (f64.add (local.get $d2) (f64x2.extract_lane 0 (local.get $x))) (f64x2.extract_lane 1 (local.get $x))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $two)))
    (if (i32.lt_u (local.get $i) (local.get $end))
      (then
        (local.set $ra (v128.load64_zero (i32.add (local.get $rhoA) (local.get $i))))
        (local.set $rb (v128.load64_zero (i32.add (local.get $rhoB) (local.get $i))))
        (local.set $r (f64x2.add (local.get $ra) (local.get $rb)))
        (f64.store (i32.add (local.get $rho) (local.get $i)) (f64x2.extract_lane 0 (local.get $r)))
        (local.set $sb (v128.load64_zero (i32.add (local.get $sBeg) (local.get $i))))
        (local.set $se (v128.load64_zero (i32.add (local.get $sEnd) (local.get $i))))
        (local.set $e1 (f64x2.add (local.get $ra) (v128.load64_zero (i32.add (local.get $pBBeg) (local.get $i)))))
        (local.set $e2 (f64x2.add (local.get $rb) (v128.load64_zero (i32.add (local.get $pAEnd) (local.get $i)))))
        (local.set $a (f64.add (local.get $a) (f64x2.extract_lane 0 (f64x2.mul (local.get $se) (local.get $r)))))
        (local.set $b (f64.add (local.get $b) (f64x2.extract_lane 0 (f64x2.mul (local.get $sb) (local.get $r)))))
        (local.set $c1 (f64.add (local.get $c1) (f64x2.extract_lane 0 (f64x2.mul (v128.load64_zero (i32.add (local.get $sBBeg) (local.get $i))) (local.get $e1)))))
        (local.set $c2 (f64.add (local.get $c2) (f64x2.extract_lane 0 (f64x2.mul (local.get $sb) (local.get $e1)))))
        (local.set $d1 (f64.add (local.get $d1) (f64x2.extract_lane 0 (f64x2.mul (local.get $se) (local.get $e2)))))
        (local.set $d2 (f64.add (local.get $d2) (f64x2.extract_lane 0 (f64x2.mul (v128.load64_zero (i32.add (local.get $sAEnd) (local.get $i))) (local.get $e2)))))))
    (i32.and
      (i32.and (i32.and (f64.gt (local.get $a) (f64.const 0)) (f64.gt (local.get $b) (f64.const 0)))
               (i32.and (f64.gt (local.get $c1) (f64.const 0)) (f64.gt (local.get $c2) (f64.const 0))))
      (i32.and (f64.gt (local.get $d1) (f64.const 0)) (f64.gt (local.get $d2) (f64.const 0)))))

  ;; Joins two single leaves p1 then p2 (velocities v1, v2): rho = p1 + p2; 1 when v2·rho > 0 and
  ;; v1·rho > 0.
  (func (export "join_leaves")
    (param $rho i32) (param $p1 i32) (param $p2 i32) (param $v1 i32) (param $v2 i32) (param $n i32)
    (result i32)
    (local $i i32) (local $end i32) (local $r f64) (local $a f64) (local $b f64)
    (local.set $end (i32.shl (local.get $n) (i32.const 3)))
    (block $done
      (loop $one
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $r (f64.add (f64.load (i32.add (local.get $p1) (local.get $i))) (f64.load (i32.add (local.get $p2) (local.get $i)))))
        (f64.store (i32.add (local.get $rho) (local.get $i)) (local.get $r))
        (local.set $a (f64.add (local.get $a) (f64.mul (f64.load (i32.add (local.get $v2) (local.get $i))) (local.get $r))))
        (local.set $b (f64.add (local.get $b) (f64.mul (f64.load (i32.add (local.get $v1) (local.get $i))) (local.get $r))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $one)))
    (i32.and (f64.gt (local.get $a) (f64.const 0)) (f64.gt (local.get $b) (f64.const 0))))

  ;; A fresh momentum for a diagonal metric from standard normals z: p = z / √m, v = m·p, and
  ;; Σ p·v (in index order: twice the kinetic energy) stored at $sum.
  (func (export "momentum")
    (param $z i32) (param $m i32) (param $p i32) (param $v i32) (param $n i32) (param $sum i32)
    (local $i i32) (local $end i32) (local $pi f64) (local $vi f64) (local $s f64)
    (local.set $end (i32.shl (local.get $n) (i32.const 3)))
    (block $done
      (loop $one
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $pi (f64.div (f64.load (i32.add (local.get $z) (local.get $i)))
                                (f64.sqrt (f64.load (i32.add (local.get $m) (local.get $i))))))
        (local.set $vi (f64.mul (f64.load (i32.add (local.get $m) (local.get $i))) (local.get $pi)))
        (f64.store (i32.add (local.get $p) (local.get $i)) (local.get $pi))
        (f64.store (i32.add (local.get $v) (local.get $i)) (local.get $vi))
        (local.set $s (f64.add (local.get $s) (f64.mul (local.get $pi) (local.get $vi))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $one)))
    (f64.store (local.get $sum) (local.get $s)))

  ;; Copies: p1 = p2 = p and v1 = v.
  (func (export "spread")
    (param $p i32) (param $v i32) (param $p1 i32) (param $p2 i32) (param $v1 i32) (param $n i32)
    (local $i i32) (local $end i32) (local $x v128)
    (local.set $end (i32.shl (local.get $n) (i32.const 3)))
    (block $done
      (loop $two
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $x (v128.load (i32.add (local.get $p) (local.get $i))))
        (v128.store (i32.add (local.get $p1) (local.get $i)) (local.get $x))
        (v128.store (i32.add (local.get $p2) (local.get $i)) (local.get $x))
        (v128.store (i32.add (local.get $v1) (local.get $i)) (v128.load (i32.add (local.get $v) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $two))))
)
