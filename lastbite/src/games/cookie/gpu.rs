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

use super::tables::{NimLayer, Packing};

/// The device's share of a nim table under construction: three layer buffers in
/// rotation (layer `m` in buffer `m % 3`), and which layers they hold.
pub struct NimOnDevice<'g> {
    gpu: &'g Gpu,
    kernel: wgpu::ComputePipeline,
    layers: [wgpu::Buffer; 3],
    /// The components of the layer in each buffer.
    holds: [Option<u32>; 3],
    params: wgpu::Buffer,
    overflow: wgpu::Buffer,
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
        let usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC;
        Ok(NimOnDevice {
            gpu,
            kernel: gpu.kernel("cookie nim layer", include_str!("nim.wgsl")),
            layers: std::array::from_fn(|i| gpu.buffer(&format!("nim layer {i}"), bytes, usage)),
            holds: [None; 3],
            params: gpu.buffer(
                "params",
                16,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            ),
            overflow: gpu.words("overflow", &[0]),
        })
    }

    /// Puts layer `m` (from the host's table) on the device unless it is there.
    fn hold(&mut self, m: u32, layers: &[Option<NimLayer>]) -> Result<(), String> {
        let slot = (m % 3) as usize;
        if self.holds[slot] == Some(m) {
            return Ok(());
        }
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
        self.gpu
            .queue()
            .write_buffer(&self.layers[slot], 0, &as_bytes(&words));
        self.holds[slot] = Some(m);
        Ok(())
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
            self.hold(m, layers)?;
        }
        let slot = (n % 3) as usize;
        let one = ((n + 2) % 3) as usize;
        let two = ((n + 1) % 3) as usize;
        let positions = 1u64 << (n - 1);
        let words = words_of(n);
        let (x, y, row) = self.gpu.grid(words);
        let q = self.gpu.queue();
        q.write_buffer(&self.params, 0, &as_bytes(&[n, positions as u32, row, 0]));
        q.write_buffer(&self.overflow, 0, &as_bytes(&[0]));
        let group = self.gpu.bind(
            &self.kernel,
            &[
                &self.params,
                &self.layers[one],
                &self.layers[two],
                &self.layers[slot],
                &self.overflow,
            ],
        );
        // The buffer is overwritten before anything is known of the new layer.
        self.holds[slot] = None;
        let bytes = self
            .gpu
            .dispatch_and_read(&self.kernel, &group, (x, y), &self.layers[slot], words * 4)
            .map_err(|e| e.to_string())?;
        let flag = self
            .gpu
            .dispatch_and_read(&self.kernel, &group, (0, 0), &self.overflow, 4)
            .map_err(|e| e.to_string())?;
        if flag.iter().any(|&b| b != 0) {
            return Err(format!(
                "a strict position with {n} components has a nim-value above 15"
            ));
        }
        self.holds[slot] = Some(n);
        progress.advance(positions);
        Ok(NimLayer::from_nibbles(n, packing, &bytes))
    }
}
