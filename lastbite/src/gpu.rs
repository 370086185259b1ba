//! A GPU for the layer kernels (cargo feature `gpu`): the device found through wgpu
//! (Vulkan, Metal or DirectX 12, so an NVIDIA card through its Vulkan driver; no vendor
//! toolkit at build or run time), the kernels compiled once per device, and the
//! read-back of results. The kernels themselves live with their families:
//! [`crate::games::dinner::solver::gpu`] (the lean solver's subset layers) and
//! [`crate::games::cookie::gpu`] (the strict nim table's layers).
//!
//! By default only a hardware adapter is used ([`Gpu::shared`]); the tests run the same
//! kernels on a software Vulkan device (Mesa's lavapipe) against the CPU.

use std::collections::HashMap;
use std::sync::{mpsc, Mutex};

/// A GPU found through wgpu.
pub struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    limits: wgpu::Limits,
    /// Workgroups in one row of a dispatch (the device's limit per dimension, or less).
    grid: u32,
    name: String,
    kernels: Mutex<HashMap<&'static str, wgpu::ComputePipeline>>,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu").field("name", &self.name).finish()
    }
}

/// The device the solvers share ([`Gpu::shared`]).
static SHARED: std::sync::OnceLock<Option<Gpu>> = std::sync::OnceLock::new();

/// Workgroup size of every kernel (`@workgroup_size(64)`).
pub(crate) const WORKGROUP: u32 = 64;

/// What went wrong on the device.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the GPU failed: {0}")]
pub struct GpuFailure(pub String);

impl Gpu {
    /// The first hardware GPU (discrete, then integrated, then virtual) on this machine,
    /// or, with `software`, also a CPU-emulated device (Mesa's lavapipe: for tests).
    /// `None` when there is none.
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
        Some(Gpu {
            device,
            queue,
            grid: limits.max_compute_workgroups_per_dimension.max(1),
            limits,
            name: format!("{} ({:?})", info.name, info.backend),
            kernels: Mutex::new(HashMap::new()),
        })
    }

    /// The GPU the solvers use: a hardware GPU found once per process, unless the
    /// environment variable `LASTBITE_GPU` is `off`; `software` also admits a
    /// CPU-emulated device.
    pub fn shared() -> Option<&'static Gpu> {
        SHARED
            .get_or_init(|| match std::env::var("LASTBITE_GPU").as_deref() {
                Ok("off") | Ok("0") => None,
                Ok("software") => Gpu::find(true),
                _ => Gpu::find(false),
            })
            .as_ref()
    }

    /// Makes `gpu` (or, with `None`, no device) the one [`Gpu::shared`] returns, if no
    /// solver has asked for it yet; `false` when one was already chosen.
    pub fn share(gpu: Option<Gpu>) -> bool {
        SHARED.set(gpu).is_ok()
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

    /// The largest buffer a kernel may bind, in bytes.
    pub(crate) fn buffer_limit(&self) -> u64 {
        self.limits
            .max_storage_buffer_binding_size
            .min(self.limits.max_buffer_size)
    }

    pub(crate) fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The kernel `main` of a WGSL source, compiled once per device.
    pub(crate) fn kernel(&self, label: &'static str, wgsl: &'static str) -> wgpu::ComputePipeline {
        let mut kernels = self.kernels.lock().unwrap_or_else(|e| e.into_inner());
        kernels
            .entry(label)
            .or_insert_with(|| {
                let module = self
                    .device
                    .create_shader_module(wgpu::ShaderModuleDescriptor {
                        label: Some(label),
                        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
                    });
                self.device
                    .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                        label: Some(label),
                        layout: None,
                        module: &module,
                        entry_point: Some("main"),
                        compilation_options: Default::default(),
                        cache: None,
                    })
            })
            .clone()
    }

    /// The grid `(x, y)` of workgroups for `invocations` invocations, and the
    /// invocations in one row (`x * WORKGROUP`), which kernels use to number themselves
    /// `id.y * row + id.x`.
    pub(crate) fn grid(&self, invocations: u64) -> (u32, u32, u32) {
        let groups = invocations.div_ceil(u64::from(WORKGROUP)).max(1);
        let x = groups.min(u64::from(self.grid)) as u32;
        let y = groups.div_ceil(u64::from(x)) as u32;
        (x, y, x * WORKGROUP)
    }

    /// A buffer of `size` bytes (at least 16).
    pub(crate) fn buffer(&self, label: &str, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: size.max(16).next_multiple_of(4),
            usage,
            mapped_at_creation: false,
        })
    }

    /// A storage buffer holding `words`.
    pub(crate) fn words(&self, label: &str, words: &[u32]) -> wgpu::Buffer {
        use wgpu::util::DeviceExt;
        let mut contents = as_bytes(words);
        if contents.is_empty() {
            contents = vec![0; 4];
        }
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: &contents,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_DST
                    | wgpu::BufferUsages::COPY_SRC,
            })
    }

    /// A bind group of `buffers`, bound `0, 1, 2, ...` in order.
    pub(crate) fn bind(
        &self,
        kernel: &wgpu::ComputePipeline,
        buffers: &[&wgpu::Buffer],
    ) -> wgpu::BindGroup {
        let layout = kernel.get_bind_group_layout(0);
        let entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &layout,
            entries: &entries,
        })
    }

    /// Runs `kernel` on a grid of `(x, y)` workgroups.
    pub(crate) fn run(
        &self,
        kernel: &wgpu::ComputePipeline,
        group: &wgpu::BindGroup,
        (x, y): (u32, u32),
    ) {
        let mut enc = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(kernel);
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups(x, y, 1);
        }
        self.queue.submit([enc.finish()]);
    }

    /// `len` bytes of `from` from byte `offset` (both multiples of 4), once the work
    /// queued before is done.
    pub(crate) fn read(
        &self,
        from: &wgpu::Buffer,
        offset: u64,
        len: u64,
    ) -> Result<Vec<u8>, GpuFailure> {
        let len = len.max(4).next_multiple_of(4);
        let staging = self.buffer(
            "read back",
            len,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let mut enc = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        enc.copy_buffer_to_buffer(from, offset, &staging, 0, len);
        self.queue.submit([enc.finish()]);
        let slice = staging.slice(0..len);
        let (tx, rx) = mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuFailure(e.to_string()))?;
        rx.recv()
            .map_err(|e| GpuFailure(e.to_string()))?
            .map_err(|e| GpuFailure(e.to_string()))?;
        let out = slice
            .get_mapped_range()
            .map_err(|e| GpuFailure(e.to_string()))?
            .to_vec();
        staging.unmap();
        Ok(out)
    }
}

/// Words as little-endian bytes (the layout WGSL's `array<u32>` and `array<i32>` have).
pub(crate) fn as_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
