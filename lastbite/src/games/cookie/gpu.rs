//! The strict nim table's layers on a GPU (cargo feature `gpu`, [`crate::gpu`]): layer
//! `n` of [`NimTable`](super::NimTable) by one dispatch of `nim.wgsl` (one invocation per
//! eight positions, the mex over the options [`StrictCode::for_each_option`] lists),
//! reading layers `n - 1` and `n - 2` where the device computed them, in 4 bits a
//! position. Each layer is read back to the host, which keeps, stores and counts it as
//! after a CPU layer (in 2 bits with escapes when asked).
//!
//! Covered: layers of at most 33 components whose buffers fit the device; a value over
//! 15 hands the layer back to the CPU.
//!
//! [`StrictCode::for_each_option`]: super::StrictCode::for_each_option

use crate::engine::Progress;
use crate::gpu::{as_bytes, Gpu};

use super::layout::{reduced_count, suffix, NimLayer, Packing};

/// Three layer buffers in rotation on a device (layer `m` in buffer `m % 3`), which
/// layers they hold, and one kernel that writes layer `n` from layers `n - 1` and
/// `n - 2`: the part the nim and general tables share.
struct Rotation<'g> {
    gpu: &'g Gpu,
    kernel: wgpu::ComputePipeline,
    layers: [wgpu::Buffer; 3],
    holds: [Option<u32>; 3],
    params: wgpu::Buffer,
    overflow: wgpu::Buffer,
}

impl<'g> Rotation<'g> {
    fn new(gpu: &'g Gpu, label: &'static str, wgsl: &'static str, bytes: u64) -> Rotation<'g> {
        let usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC;
        Rotation {
            gpu,
            kernel: gpu.kernel(label, wgsl),
            layers: std::array::from_fn(|i| gpu.buffer(&format!("{label} {i}"), bytes, usage)),
            holds: [None; 3],
            params: gpu.buffer(
                "params",
                16,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            ),
            overflow: gpu.words("overflow", &[0]),
        }
    }

    /// Puts layer `m` on the device unless it is there; `words` gives it.
    fn hold<'a>(
        &mut self,
        m: u32,
        words: impl FnOnce() -> Result<std::borrow::Cow<'a, [u32]>, String>,
    ) -> Result<(), String> {
        let slot = (m % 3) as usize;
        if self.holds[slot] != Some(m) {
            self.gpu
                .queue()
                .write_buffer(&self.layers[slot], 0, &as_bytes(&words()?));
            self.holds[slot] = Some(m);
        }
        Ok(())
    }

    /// Runs the kernel for layer `n` on `invocations` invocations, its parameters
    /// `[n, count, row, 0]` and its bindings `tables` (read-only), layer `n - 1`, layer
    /// `n - 2`, layer `n`, the overflow flag. `Err` when the kernel set the flag, naming
    /// `overflow`, or the device failed.
    fn step(
        &mut self,
        n: u32,
        invocations: u64,
        count: u32,
        tables: &[&wgpu::Buffer],
        overflow: &str,
    ) -> Result<(), String> {
        let slot = (n % 3) as usize;
        let (x, y, row) = self.gpu.grid(invocations);
        let q = self.gpu.queue();
        q.write_buffer(&self.params, 0, &as_bytes(&[n, count, row, 0]));
        q.write_buffer(&self.overflow, 0, &as_bytes(&[0]));
        let mut bound: Vec<&wgpu::Buffer> = vec![&self.params];
        bound.extend_from_slice(tables);
        bound.extend([
            &self.layers[((n + 2) % 3) as usize],
            &self.layers[((n + 1) % 3) as usize],
            &self.layers[slot],
            &self.overflow,
        ]);
        let group = self.gpu.bind(&self.kernel, &bound);
        // The buffer is overwritten before anything is known of the new layer.
        self.holds[slot] = None;
        self.gpu.run(&self.kernel, &group, (x, y));
        let flag = self
            .gpu
            .read(&self.overflow, 0, 4)
            .map_err(|e| e.to_string())?;
        if flag.iter().any(|&b| b != 0) {
            return Err(overflow.to_string());
        }
        self.holds[slot] = Some(n);
        Ok(())
    }

    /// `len` bytes of layer `n` from byte `offset`.
    fn read(&self, n: u32, offset: u64, len: u64) -> Result<Vec<u8>, String> {
        let slot = (n % 3) as usize;
        if self.holds[slot] != Some(n) {
            return Err(format!("layer {n} is not on the device"));
        }
        self.gpu
            .read(&self.layers[slot], offset, len)
            .map_err(|e| e.to_string())
    }
}

/// The device's share of a nim table under construction.
pub struct NimOnDevice<'g> {
    rotation: Rotation<'g>,
}

/// The words of a layer of `n` components (eight 4-bit values a word).
fn words_of(n: u32) -> u64 {
    (1u64 << n.saturating_sub(1)).div_ceil(8)
}

impl<'g> NimOnDevice<'g> {
    /// Room on `gpu` for layers up to `max_n` components, or why not.
    pub fn new(gpu: &'g Gpu, max_n: u32) -> Result<NimOnDevice<'g>, String> {
        if max_n > 33 {
            return Err(format!(
                "the GPU kernel takes at most 33 components, not {max_n}"
            ));
        }
        let bytes = words_of(max_n) * 4;
        if bytes > gpu.buffer_limit() {
            return Err(format!(
                "a layer of {bytes} bytes is over the device's buffer limit of {} bytes",
                gpu.buffer_limit()
            ));
        }
        Ok(NimOnDevice {
            rotation: Rotation::new(gpu, "cookie nim layer", include_str!("nim.wgsl"), bytes),
        })
    }

    /// Layer `n >= 1` from layers `n - 1` and `n - 2` (the device's, or the host's
    /// `layers` uploaded). `Err(why)` hands the layer back to the CPU: a value over 15,
    /// or a failing device.
    pub fn layer(
        &mut self,
        layers: &[Option<NimLayer>],
        n: u32,
        packing: Packing,
        progress: &dyn Progress,
    ) -> Result<NimLayer, String> {
        for m in n.saturating_sub(2)..n {
            self.rotation.hold(m, || {
                let layer = layers
                    .get(m as usize)
                    .and_then(Option::as_ref)
                    .ok_or_else(|| format!("layer {m} is not held"))?;
                let mut words = vec![0u32; words_of(m) as usize];
                for mask in 0..1u64 << m.saturating_sub(1) {
                    let v = u32::from(layer.get(mask));
                    if v > 15 {
                        return Err(format!("layer {m} has a value over 15"));
                    }
                    words[(mask / 8) as usize] |= v << (4 * (mask % 8));
                }
                Ok(words.into())
            })?;
        }
        let positions = 1u64 << (n - 1);
        let words = words_of(n);
        self.rotation.step(
            n,
            words,
            positions as u32,
            &[],
            &format!("a strict position with {n} components has a nim-value above 15"),
        )?;
        let bytes = self.rotation.read(n, 0, words * 4)?;
        progress.advance(positions);
        Ok(NimLayer::from_nibbles(n, packing, &bytes))
    }
}

/// The largest `n` whose layer the general kernel computes: ranks and counts in 32
/// bits (layer 19 has 1.8 x 10^9 positions).
pub const MAX_GENERAL_ON_DEVICE: u32 = 19;

/// The device's share of a general table ([`GeneralTable`](super::general::GeneralTable))
/// under construction: the layers in rotation and the suffix counts the ranks need.
pub struct GeneralOnDevice<'g> {
    rotation: Rotation<'g>,
    suffix: wgpu::Buffer,
    /// The largest layer the buffers hold.
    capacity: u32,
}

impl<'g> GeneralOnDevice<'g> {
    /// Room on `gpu` for layers up to `max_n` components, or why not.
    pub fn new(gpu: &'g Gpu, max_n: u32) -> Result<GeneralOnDevice<'g>, String> {
        if max_n > MAX_GENERAL_ON_DEVICE {
            return Err(format!(
                "the GPU kernel takes at most {MAX_GENERAL_ON_DEVICE} components, not {max_n}"
            ));
        }
        let bytes = reduced_count(max_n as usize) * 4;
        if bytes > gpu.buffer_limit() {
            return Err(format!(
                "a layer of {bytes} bytes is over the device's buffer limit of {} bytes",
                gpu.buffer_limit()
            ));
        }
        let mut suf = vec![0u32; 34 * 34 * 34];
        for m in 0..=max_n as usize {
            for (k, row) in suffix(m).iter().enumerate() {
                for (v, &c) in row.iter().enumerate() {
                    suf[(m * 34 + k) * 34 + v] =
                        u32::try_from(c).map_err(|_| format!("a count of {c} is past 32 bits"))?;
                }
            }
        }
        Ok(GeneralOnDevice {
            rotation: Rotation::new(
                gpu,
                "cookie general layer",
                include_str!("general.wgsl"),
                bytes,
            ),
            suffix: gpu.words("suffix counts", &suf),
            capacity: max_n,
        })
    }

    /// Computes layer `n >= 1` on the device from layers `n - 1` and `n - 2` (the
    /// device's, or the host's `layers` uploaded); [`GeneralOnDevice::read`] reads it.
    /// `Err(why)` hands the layer back to the CPU: a layer past the buffers, an option's
    /// nim-value past the kernel's mask, or a failing device.
    pub fn compute(
        &mut self,
        layers: &[Vec<u32>],
        n: u32,
        progress: &dyn Progress,
    ) -> Result<(), String> {
        if n > self.capacity || n == 0 {
            return Err(format!(
                "layer {n} is past the device's buffers (layers 1 to {})",
                self.capacity
            ));
        }
        for m in n.saturating_sub(2)..n {
            self.rotation.hold(m, || {
                layers
                    .get(m as usize)
                    .map(|l| l.as_slice().into())
                    .ok_or_else(|| format!("layer {m} is not held"))
            })?;
        }
        let size = reduced_count(n as usize);
        self.rotation.step(
            n,
            size,
            size as u32,
            &[&self.suffix],
            &format!(
                "a reduced position with {n} components has an option of nim-value 31 or more"
            ),
        )?;
        progress.advance(size);
        Ok(())
    }

    /// `len` values of the computed layer `n` from rank `first`.
    pub fn read(&self, n: u32, first: u64, len: u64) -> Result<Vec<u32>, String> {
        let bytes = self.rotation.read(n, first * 4, len * 4)?;
        Ok(bytes
            .chunks_exact(4)
            .take(len as usize)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}
