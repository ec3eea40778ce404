//! thud-lcp benches: the exact solvers on dense SPD problems (n = 50, 200), one
//! projected Gauss-Seidel / SOR sweep over a dense n = 1000 matrix, the boxed
//! pivoting solver on a contact problem with coupled friction, and the boxed pivoting
//! and interior-point solvers on contact problems whose friction bounds are fixed (as
//! the engine's exact mode poses them), the boxed pivoting one also in a workspace kept
//! between solves (`boxed_pivot_kept`, as the exact mode runs it).
//!
//! Targets (issue 2): Lemke on SPD n = 200 under 15 ms; one PGS sweep over dense
//! n = 1000 under 1.5 ms. Run with
//! `cargo bench --bench lcp -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use thud_lcp::generate::{contact, spd};
use thud_lcp::solvers::{boxed_pivot, dantzig, dantzig_simple, interior, kolesnikov, lemke, sor};
use thud_lcp::{Options, Report, SolveError};

type LcpSolve = fn(&thud_lcp::Lcp, &Options) -> Result<Report, SolveError>;

fn pivoting(c: &mut Criterion) {
    let mut group = c.benchmark_group("pivoting_spd");
    group.sample_size(10);
    let opts = Options::default();
    for n in [50, 200] {
        let p = spd(n, 42);
        let boxed = p.to_boxed();
        let methods: [(&str, LcpSolve); 4] = [
            ("lemke", lemke::solve_lcp),
            ("dantzig", dantzig::solve_lcp),
            ("dantzig-simple", dantzig_simple::solve_lcp),
            ("kolesnikov", kolesnikov::solve_lcp),
        ];
        for (name, solve) in methods {
            group.bench_with_input(BenchmarkId::new(name, n), &p, |b, p| {
                b.iter(|| {
                    let r = solve(black_box(p), &opts).expect("applies");
                    assert!(r.is_solved());
                    r
                })
            });
        }
        group.bench_with_input(BenchmarkId::new("boxed-pivot", n), &boxed, |b, p| {
            b.iter(|| {
                let r = boxed_pivot::solve_boxed(black_box(p), &opts).expect("applies");
                assert!(r.is_solved());
                r
            })
        });
    }
    group.finish();
}

fn sweeps(c: &mut Criterion) {
    let mut group = c.benchmark_group("sweep_dense_1000");
    let p = spd(1000, 7).to_boxed();
    for (name, omega) in [("pgs", 1.0), ("sor", 1.3)] {
        let mut lambda = vec![0.0; p.n()];
        group.bench_function(name, |b| {
            b.iter(|| sor::sweep(black_box(&p), &mut lambda, omega))
        });
    }
    group.finish();
}

fn contact_problem(c: &mut Criterion) {
    let mut group = c.benchmark_group("contact_boxed_pivot");
    group.sample_size(10);
    let opts = Options::default();
    for n in [30, 120] {
        let p = contact(n, 3);
        group.bench_with_input(BenchmarkId::new("cold", n), &p, |b, p| {
            b.iter(|| boxed_pivot::solve_boxed(black_box(p), &opts).expect("applies"))
        });
        let answer = boxed_pivot::solve_boxed(&p, &opts).expect("applies").z;
        let warm = Options {
            warm_start: Some(answer),
            ..Options::default()
        };
        group.bench_with_input(BenchmarkId::new("warm", n), &p, |b, p| {
            b.iter(|| boxed_pivot::solve_boxed(black_box(p), &warm).expect("applies"))
        });
    }
    group.finish();
}

/// A contact problem with its friction bounds fixed at `±μλₙ` of its coupled answer,
/// from cold: the pattern search against the interior-point method.
fn fixed_bounds(c: &mut Criterion) {
    let mut group = c.benchmark_group("contact_fixed_bounds");
    group.sample_size(10);
    let opts = Options::default();
    for n in [30, 120, 240] {
        let coupled = contact(n, 3);
        let answer = boxed_pivot::solve_boxed(&coupled, &opts)
            .expect("applies")
            .z;
        let (lo, hi) = coupled.effective_bounds(&answer);
        let p = thud_lcp::BoxedLcp::new(coupled.a().clone(), coupled.b().to_vec(), lo, hi)
            .expect("a valid problem");
        group.bench_with_input(BenchmarkId::new("boxed_pivot", n), &p, |b, p| {
            b.iter(|| boxed_pivot::solve_boxed(black_box(p), &opts).expect("applies"))
        });
        // The same solve in a workspace kept from solve to solve, its reports handed
        // back (`solve_boxed_in`: the exact mode's way, no allocation once grown).
        let mut ws = thud_lcp::Workspace::new();
        group.bench_with_input(BenchmarkId::new("boxed_pivot_kept", n), &p, |b, p| {
            b.iter(|| {
                let r = boxed_pivot::solve_boxed_in(black_box(p), &opts, &mut ws).expect("applies");
                let status = r.status;
                ws.recycle(r);
                status
            })
        });
        group.bench_with_input(BenchmarkId::new("interior_point", n), &p, |b, p| {
            b.iter(|| interior::solve_interior(black_box(p), &opts).expect("applies"))
        });
        let (pivot, ip) = (
            boxed_pivot::solve_boxed(&p, &opts).expect("applies"),
            interior::solve_interior(&p, &opts).expect("applies"),
        );
        println!(
            "contact_fixed_bounds/{n}: boxed-pivot {:?} in {} solves, interior-point {:?} in {}",
            pivot.status, pivot.iterations, ip.status, ip.iterations
        );
    }
    group.finish();
}

criterion_group!(benches, pivoting, sweeps, contact_problem, fixed_bounds);
criterion_main!(benches);
