//! The GPU path (cargo feature `gpu`) against the CPU: the layer kernel on a software
//! Vulkan device (Mesa's lavapipe, which the test command installs) gives the lean
//! solver's values and path on random dinners of 1 to 16 morsels, 2 to 4 players, every
//! tie rule per player, with and without the index rule; `dinner solve` through the
//! library API answers a 22-morsel dinner on the device with the CPU's report; and the
//! cookie game's strict nim table built on the device equals the CPU's, position by
//! position, in 2 and 4 bits, fresh and resumed from a store.
#![cfg(feature = "gpu")]

use lastbite::api::dinner::{solve, Method, Morsels, SolveRequest};
use lastbite::api::Control;
use lastbite::engine::{solve_lean, Silent, TieBreak, Ties};
use lastbite::exact::Exact;
use lastbite::games::cookie::general::GeneralTable;
use lastbite::games::cookie::{NimTable, Packing, DEFAULT_NIM_MEMORY};
use lastbite::games::dinner::solver::gpu::{solve as on_device, GpuRefusal};
use lastbite::games::dinner::{Dinner, DinnerGame, Rules, Setup, TurnOrder};
use lastbite::gpu::Gpu;
use lastbite::rng::Rng;

fn device() -> Gpu {
    Gpu::find(true)
        .expect("no Vulkan device, not even a software one: install Debian's mesa-vulkan-drivers")
}

#[test]
fn the_kernel_equals_the_cpu_lean_solver() {
    let gpu = device();
    let mut cases = 0;
    for seed in 0..120u64 {
        let mut rng = Rng::for_trial(seed, 11);
        let players = 2 + rng.below(3) as usize;
        let n = 1 + rng.below(16) as usize;
        // Small utilities: many ties, so the tie rules decide.
        let values: Vec<i64> = (0..n * players).map(|_| rng.below(5) as i64).collect();
        let d = Dinner::from_integers(players, values).unwrap();
        let order = TurnOrder::default_for(&d);
        let perturb = rng.below(2) == 0;
        let ties = Ties::per_player(
            (0..players)
                .map(|_| TieBreak::ALL[rng.below(4) as usize])
                .collect(),
        );
        let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
        let game = DinnerGame::<i32>::new(&setup, perturb).unwrap();
        let cpu = solve_lean(&game, &ties, u128::MAX, &Silent).unwrap();
        let dev = on_device(&gpu, &game, &ties, &Silent).unwrap().unwrap();
        assert_eq!(dev.value, cpu.value, "seed {seed}: {players} x {n}");
        let steps = |s: &[lastbite::engine::LeanStep<u64, usize>]| {
            s.iter()
                .map(|s| (s.state, s.mover, s.mv))
                .collect::<Vec<_>>()
        };
        assert_eq!(steps(&dev.path), steps(&cpu.path), "seed {seed}");
        cases += 1;
    }
    assert_eq!(cases, 120);
}

/// Layers wider than one row of workgroups (`n >= 27` on a real device) run on a grid
/// of rows: the same answers with rows of 1, 3 and 7 workgroups.
#[test]
fn a_grid_of_several_rows_gives_the_same_answers() {
    for width in [1, 3, 7] {
        let gpu = device().with_grid_width(width);
        for seed in 0..6u64 {
            let mut rng = Rng::for_trial(seed, 12);
            let n = 12 + rng.below(5) as usize;
            let values: Vec<i64> = (0..n * 3).map(|_| rng.below(9) as i64).collect();
            let d = Dinner::from_integers(3, values).unwrap();
            let order = TurnOrder::default_for(&d);
            let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
            let game = DinnerGame::<i32>::new(&setup, true).unwrap();
            let ties = Ties::uniform(TieBreak::First, 3);
            let cpu = solve_lean(&game, &ties, u128::MAX, &Silent).unwrap();
            let dev = on_device(&gpu, &game, &ties, &Silent).unwrap().unwrap();
            assert_eq!(dev.value, cpu.value, "width {width} seed {seed}");
            let moves = |p: &[lastbite::engine::LeanStep<u64, usize>]| {
                p.iter().map(|s| s.mv).collect::<Vec<_>>()
            };
            assert_eq!(moves(&dev.path), moves(&cpu.path));
        }
    }
}

#[test]
fn the_device_refuses_what_it_does_not_cover() {
    let gpu = device();
    let d = Dinner::from_integers(2, (0..66).map(|v| v % 7).collect()).unwrap();
    let order = TurnOrder::default_for(&d);
    let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
    let game = DinnerGame::<i32>::new(&setup, true).unwrap();
    let ties = Ties::uniform(TieBreak::First, 2);
    assert_eq!(
        on_device(&gpu, &game, &ties, &Silent).err(),
        Some(GpuRefusal::TooManyMorsels(33))
    );
    let small = Dinner::from_integers(2, vec![1, 2, 3, 4]).unwrap();
    let order = TurnOrder::default_for(&small);
    let rules = Rules::default()
        .with_discount("1/2".parse().unwrap())
        .unwrap();
    let setup = Setup::new(small.clone(), order.clone(), rules.clone()).unwrap();
    let game = DinnerGame::<i32>::new(&setup, true).unwrap();
    assert_eq!(
        on_device(&gpu, &game, &ties, &Silent).err(),
        Some(GpuRefusal::NotPlain)
    );
}

#[test]
fn dinner_solve_uses_the_device_and_answers_as_the_cpu() {
    let mut rng = Rng::for_trial(7, 3);
    let rows: Vec<Vec<Exact>> = (0..22)
        .map(|_| {
            (0..3)
                .map(|_| Exact::from(1 + rng.below(9) as i64))
                .collect()
        })
        .collect();
    // The device is chosen once per process: the CPU's answer is asked of the engine's
    // lean solver directly.
    let req = SolveRequest {
        morsels: Some(Morsels::Rows(rows.clone())),
        order: Some("snake".into()),
        method: Method::Exact,
        ..Default::default()
    };
    // The only test here that solves through the shared device (no environment variable
    // set while other threads read it).
    assert!(Gpu::share(Some(device())));
    let on_device = solve(&req, &Control::silent()).unwrap();
    assert!(on_device.gpu.is_some(), "the software device was not used");
    // The CPU's answer: the same dinner through the engine's lean solver.
    let d = Dinner::from_integers(
        3,
        rows.iter()
            .flatten()
            .map(|e| e.to_string().parse::<i64>().unwrap())
            .collect(),
    )
    .unwrap();
    let order = TurnOrder::parse("snake", &d).unwrap();
    let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
    let game = DinnerGame::<i32>::new(&setup, true).unwrap();
    let cpu = solve_lean(
        &game,
        &Ties::uniform(TieBreak::First, 3),
        u128::MAX,
        &Silent,
    )
    .unwrap();
    let eaten: Vec<usize> = on_device.eating_order.iter().map(|b| b.morsel).collect();
    let cpu_eaten: Vec<usize> = cpu.path.iter().map(|s| s.mv).collect();
    assert_eq!(eaten, cpu_eaten);
    let mut scores = vec![Exact::from(0); 3];
    for s in &cpu.path {
        scores[s.mover] = scores[s.mover] + rows[s.mv][s.mover];
    }
    assert_eq!(on_device.scores, scores);
}

fn same_tables(a: &NimTable, b: &NimTable) {
    assert_eq!(a.distribution(), b.distribution());
    for n in 0..=a.max_n() {
        let (Some(x), Some(y)) = (a.layer(n), b.layer(n)) else {
            continue;
        };
        for mask in 0..1u64 << n.saturating_sub(1) {
            assert_eq!(x.get(mask), y.get(mask), "n {n} mask {mask:#b}");
        }
    }
}

#[test]
fn the_nim_table_on_the_device_equals_the_cpu() {
    let gpu = device();
    for packing in [Packing::TwoBits, Packing::FourBits] {
        let cpu = NimTable::build_on(20, packing, None, DEFAULT_NIM_MEMORY, None, &Silent).unwrap();
        assert_eq!(cpu.gpu(), None);
        for width in [u32::MAX, 2] {
            let g = device().with_grid_width(width);
            let dev = NimTable::build_on(20, packing, None, DEFAULT_NIM_MEMORY, Some(&g), &Silent)
                .unwrap();
            assert!(dev.gpu().is_some(), "the device computed no layer");
            same_tables(&dev, &cpu);
        }
    }
    // Resumed from a store the CPU wrote to 11: the device starts from uploaded layers.
    let dir = std::env::temp_dir().join(format!("lastbite-gpu-nim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    NimTable::build_on(
        11,
        Packing::TwoBits,
        Some(&dir),
        DEFAULT_NIM_MEMORY,
        None,
        &Silent,
    )
    .unwrap();
    let resumed = NimTable::build_on(
        18,
        Packing::TwoBits,
        Some(&dir),
        DEFAULT_NIM_MEMORY,
        Some(&gpu),
        &Silent,
    )
    .unwrap();
    let fresh = NimTable::build_on(
        18,
        Packing::TwoBits,
        None,
        DEFAULT_NIM_MEMORY,
        None,
        &Silent,
    )
    .unwrap();
    assert!(resumed.gpu().is_some());
    same_tables(&resumed, &fresh);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_general_table_on_the_device_equals_the_cpu() {
    let (cpu, none) = GeneralTable::build_on(13, None, 1 << 30, None, &Silent).unwrap();
    assert_eq!(none, None);
    for width in [u32::MAX, 5] {
        let g = device().with_grid_width(width);
        let (dev, name) = GeneralTable::build_on(13, None, 1 << 30, Some(&g), &Silent).unwrap();
        assert!(name.is_some(), "the device computed no layer");
        for n in 0..=13u32 {
            let size = lastbite::games::cookie::general::reduced_count(n as usize);
            for r in 0..size {
                assert_eq!(dev.get(n, r), cpu.get(n, r), "n {n} rank {r}");
            }
        }
    }
    // The rows, the last layer counted from the device's chunks; and resumed from a
    // store the CPU wrote to 9.
    let gpu = device();
    let cpu_rows = GeneralTable::rows_to_on(14, None, 1 << 30, None, &Silent)
        .unwrap()
        .0;
    let (rows, name) = GeneralTable::rows_to_on(14, None, 1 << 30, Some(&gpu), &Silent).unwrap();
    assert!(name.is_some());
    assert_eq!(rows, cpu_rows);
    let dir = std::env::temp_dir().join(format!("lastbite-gpu-general-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    GeneralTable::build_on(9, Some(&dir), 1 << 30, None, &Silent).unwrap();
    let (resumed, _) =
        GeneralTable::rows_to_on(14, Some(&dir), 1 << 30, Some(&gpu), &Silent).unwrap();
    assert_eq!(resumed, cpu_rows);
    std::fs::remove_dir_all(&dir).unwrap();
}
