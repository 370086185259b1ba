//! The lean solver's layers of a plain dinner on a GPU (cargo feature `gpu`): the same
//! two layers of payoff vectors, now in device memory, each layer decided by one compute
//! dispatch of `layer.wgsl` (one invocation per four states, ranked colexicographically
//! as on the CPU, [`super::DinnerGame`]'s [`crate::engine::RankedGame`] order), and one
//! choice byte per state read back to the host, from which the path is read by
//! [`engine::path_from_choices`] exactly as after a CPU solve.
//!
//! The device is reached through wgpu (Vulkan, Metal or DirectX 12; no vendor toolkit at
//! build or run time): an NVIDIA GPU through its Vulkan driver. Tests run the same kernel
//! on a software Vulkan device (Mesa's lavapipe) against the CPU solver; by default only a
//! hardware adapter is used ([`Gpu::find`]).
//!
//! Covered: plain dinners (no discount, altruism or precedence) of at most 32 morsels
//! whose payoffs fit 32-bit integers, every tie rule per player. Anything else is
//! answered by the CPU ([`GpuRefusal`]).

use std::sync::mpsc;

use wgpu::util::DeviceExt;

use crate::engine::{self, IndexedGame, LeanSolution, PathRecovery, Progress, RankedGame, Ties};

use super::game::DinnerGame;

/// Why a dinner was not solved on the device (the caller then solves it on the CPU).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GpuRefusal {
    /// More morsels than the kernel's 32-bit subsets hold.
    #[error("the GPU kernel takes at most 32 morsels, not {0}")]
    TooManyMorsels(usize),
    /// Not the plain game: a discount, altruism or a precedence.
    #[error("the GPU kernel solves plain dinners only")]
    NotPlain,
    /// A sum of payoffs might not fit 32 bits.
    #[error("payoffs may not fit 32-bit integers")]
    Wide,
    /// A layer is larger than the device's buffers.
    #[error("a layer of {bytes} bytes is over the device's buffer limit of {limit} bytes")]
    TooLarge {
        /// The largest layer's payoff vectors, in bytes.
        bytes: u64,
        /// The device's limit.
        limit: u64,
    },
    /// The device failed (lost, out of memory, a failed map).
    #[error("the GPU failed: {0}")]
    Device(String),
}

/// A GPU found through wgpu, with the layer kernel compiled for it.
pub struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    limits: wgpu::Limits,
    /// Workgroups in one row of a dispatch (the device's limit per dimension, or less).
    grid: u32,
    name: String,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu").field("name", &self.name).finish()
    }
}

/// Workgroup size of `layer.wgsl`.
const WORKGROUP: u32 = 64;
/// States one invocation decides (their choice bytes make one word).
const PER_INVOCATION: u64 = 4;

impl Gpu {
    /// The first hardware GPU (discrete, then integrated) on this machine, or, with
    /// `software`, also a CPU-emulated device (Mesa's lavapipe: for tests). `None` when
    /// there is none.
    pub fn find(software: bool) -> Option<Gpu> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Backends::PRIMARY;
        let instance = wgpu::Instance::new(desc);
        let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::PRIMARY));
        let rank = |t: wgpu::DeviceType| match t {
            wgpu::DeviceType::DiscreteGpu => Some(0),
            wgpu::DeviceType::IntegratedGpu => Some(1),
            wgpu::DeviceType::VirtualGpu => Some(2),
            wgpu::DeviceType::Cpu if software => Some(3),
            _ => None,
        };
        let adapter = adapters
            .into_iter()
            .filter_map(|a| rank(a.get_info().device_type).map(|r| (r, a)))
            .min_by_key(|(r, _)| *r)?
            .1;
        let info = adapter.get_info();
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("lastbite"),
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .ok()?;
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("dinner layer"),
            source: wgpu::ShaderSource::Wgsl(include_str!("layer.wgsl").into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("dinner layer"),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        Some(Gpu {
            device,
            queue,
            pipeline,
            grid: limits.max_compute_workgroups_per_dimension.max(1),
            limits,
            name: format!("{} ({:?})", info.name, info.backend),
        })
    }

    /// The GPU the solvers use: a hardware GPU found once per process, unless the
    /// environment variable `LASTBITE_GPU` is `off`; `software` also admits a
    /// CPU-emulated device.
    pub fn shared() -> Option<&'static Gpu> {
        static GPU: std::sync::OnceLock<Option<Gpu>> = std::sync::OnceLock::new();
        GPU.get_or_init(|| match std::env::var("LASTBITE_GPU").as_deref() {
            Ok("off") | Ok("0") => None,
            Ok("software") => Gpu::find(true),
            _ => Gpu::find(false),
        })
        .as_ref()
    }

    /// The same device dispatching at most `groups` workgroups a row: layers wider than
    /// a row then run on a grid of several rows, as the widest layers do on any device
    /// (for tests, which cannot afford such layers on a software device).
    pub fn with_grid_width(mut self, groups: u32) -> Gpu {
        self.grid = groups.clamp(1, self.grid);
        self
    }

    /// The adapter's name and backend, e.g. `NVIDIA H100 80GB HBM3 (Vulkan)`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Solves a plain dinner's lean layers on the device; the path is read back from
    /// the choice bytes on the host. The same values and path as
    /// [`engine::solve_lean`] with choice bytes (tested against it).
    pub fn solve(
        &self,
        game: &DinnerGame<'_, i32>,
        ties: &Ties,
        progress: &dyn Progress,
    ) -> Result<Result<LeanSolution<DinnerGame<'_, i32>>, engine::EngineError>, GpuRefusal> {
        let n = game.layer_count() - 1;
        if n > 32 {
            return Err(GpuRefusal::TooManyMorsels(n));
        }
        let pay = game.plain_payoffs().ok_or(GpuRefusal::NotPlain)?.to_vec();
        let k = engine::Game::players(game);
        // Every partial sum the kernel forms (a player's payoff, the others' total) is at
        // most the sum of all payoffs' magnitudes.
        let total: i64 = pay.iter().map(|&p| i64::from(p).abs()).sum();
        if total > i64::from(i32::MAX) {
            return Err(GpuRefusal::Wide);
        }
        let widest = (0..=n)
            .map(|l| game.layer_size(l) as u64)
            .max()
            .unwrap_or(1);
        let value_bytes = widest * k as u64 * 4;
        let pick_bytes = widest.div_ceil(PER_INVOCATION) * 4;
        let limit = self
            .limits
            .max_storage_buffer_binding_size
            .min(self.limits.max_buffer_size);
        if value_bytes.max(pick_bytes) > limit {
            return Err(GpuRefusal::TooLarge {
                bytes: value_bytes,
                limit,
            });
        }
        Ok(self.run(game, ties, &pay, n, k, value_bytes, pick_bytes, progress))
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        game: &DinnerGame<'_, i32>,
        ties: &Ties,
        pay: &[i32],
        n: usize,
        k: usize,
        value_bytes: u64,
        pick_bytes: u64,
        progress: &dyn Progress,
    ) -> Result<LeanSolution<DinnerGame<'_, i32>>, engine::EngineError> {
        let dev = &self.device;
        let words = |v: &[u32]| v.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
        let mut binom = vec![0u32; 33 * 33];
        for a in 0..33 {
            binom[a * 33] = 1;
            for b in 1..=a {
                binom[a * 33 + b] =
                    binom[(a - 1) * 33 + b - 1] + if b < a { binom[(a - 1) * 33 + b] } else { 0 };
            }
        }
        let storage = wgpu::BufferUsages::STORAGE;
        let init = |label: &str, contents: &[u8]| {
            dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage: storage,
            })
        };
        let binom_buf = init("binomials", &words(&binom));
        let pay_words: Vec<u32> = pay.iter().map(|&p| p as u32).collect();
        let pay_buf = init("payoffs", &words(&pay_words));
        let buffer = |label: &str, size: u64, usage: wgpu::BufferUsages| {
            dev.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size.max(16),
                usage,
                mapped_at_creation: false,
            })
        };
        let values = [
            buffer(
                "values a",
                value_bytes,
                storage | wgpu::BufferUsages::COPY_SRC,
            ),
            buffer(
                "values b",
                value_bytes,
                storage | wgpu::BufferUsages::COPY_SRC,
            ),
        ];
        let picks = buffer(
            "choices",
            pick_bytes,
            storage | wgpu::BufferUsages::COPY_SRC,
        );
        let staging = buffer(
            "read back",
            pick_bytes.max(value_bytes.min(1 << 20)),
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let params = buffer(
            "params",
            32,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        let layout = self.pipeline.get_bind_group_layout(0);
        // Bind group `s` reads values[s] and writes values[1 - s].
        let groups: Vec<wgpu::BindGroup> = (0..2)
            .map(|s| {
                let bufs = [
                    &params,
                    &binom_buf,
                    &pay_buf,
                    &values[s],
                    &values[1 - s],
                    &picks,
                ];
                let entries: Vec<wgpu::BindGroupEntry> = bufs
                    .iter()
                    .enumerate()
                    .map(|(i, b)| wgpu::BindGroupEntry {
                        binding: i as u32,
                        resource: b.as_entire_binding(),
                    })
                    .collect();
                dev.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: None,
                    layout: &layout,
                    entries: &entries,
                })
            })
            .collect();
        let states: u128 = (0..=n).map(|l| game.layer_size(l) as u128).sum();
        let order: Vec<usize> = (0..n).map(|t| game.player_of_turn(t)).collect();
        progress.start(states as u64, "states (GPU)");
        let mut choices: Vec<Vec<u8>> = Vec::with_capacity(n + 1);
        let max_groups = self.grid;
        for layer in 0..=n {
            if progress.cancelled() {
                progress.finish();
                return Err(engine::EngineError::Cancelled);
            }
            let size = game.layer_size(layer) as u64;
            let invocations = size.div_ceil(PER_INVOCATION);
            let groups_needed = invocations.div_ceil(u64::from(WORKGROUP)) as u32;
            let x = groups_needed.clamp(1, max_groups);
            let y = groups_needed.div_ceil(x).max(1);
            let (mover, rule) = if layer == 0 {
                (0, 0)
            } else {
                let m = order[n - layer];
                let rule = match ties.of(m) {
                    engine::TieBreak::First => 0u32,
                    engine::TieBreak::Last => 1,
                    engine::TieBreak::Friendly => 2,
                    engine::TieBreak::Antagonistic => 3,
                };
                (m as u32, rule)
            };
            let p = [
                n as u32,
                k as u32,
                layer as u32,
                size as u32,
                mover,
                rule,
                x * WORKGROUP,
                0,
            ];
            self.queue.write_buffer(&params, 0, &words(&p));
            // Layer l reads values[(l + 1) % 2] and writes values[l % 2].
            let group = &groups[(layer + 1) % 2];
            let mut enc = dev.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
            {
                let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
                pass.set_pipeline(&self.pipeline);
                pass.set_bind_group(0, group, &[]);
                pass.dispatch_workgroups(x, y, 1);
            }
            let used = invocations * 4;
            enc.copy_buffer_to_buffer(&picks, 0, &staging, 0, used.max(4).next_multiple_of(4));
            self.queue.submit([enc.finish()]);
            let bytes = self.read(&staging, used.max(4).next_multiple_of(4))?;
            let mut layer_choices = bytes;
            layer_choices.truncate(size as usize);
            choices.push(layer_choices);
            progress.advance(size);
        }
        progress.finish();
        // The top layer holds the root alone, rank 0.
        let top = &values[n % 2];
        let mut enc = dev.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        enc.copy_buffer_to_buffer(top, 0, &staging, 0, (k * 4) as u64);
        self.queue.submit([enc.finish()]);
        let raw = self.read(&staging, (k * 4) as u64)?;
        let value: Vec<i32> = raw
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let path = engine::path_from_choices(game, &choices)?;
        Ok(LeanSolution {
            value,
            path,
            states: states as u64,
            resolved: 0,
            recovery: PathRecovery::ChoiceBytes,
            bytes: states + 2 * u128::from(value_bytes),
        })
    }

    /// The first `len` bytes of a mappable buffer, after the queue's work is done.
    fn read(&self, staging: &wgpu::Buffer, len: u64) -> Result<Vec<u8>, engine::EngineError> {
        let slice = staging.slice(0..len);
        let (tx, rx) = mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        let failed = |e: String| engine::EngineError::Io(format!("GPU: {e}"));
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| failed(e.to_string()))?;
        rx.recv()
            .map_err(|e| failed(e.to_string()))?
            .map_err(|e| failed(e.to_string()))?;
        let out = slice
            .get_mapped_range()
            .map_err(|e| failed(e.to_string()))?
            .to_vec();
        staging.unmap();
        Ok(out)
    }
}
