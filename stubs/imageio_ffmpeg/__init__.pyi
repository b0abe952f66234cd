from collections.abc import Generator, Sequence

def get_ffmpeg_exe() -> str: ...
def write_frames(
    path: str,
    size: tuple[int, int],
    pix_fmt_in: str = "rgb24",
    pix_fmt_out: str = "yuv420p",
    fps: float = 16,
    quality: float | None = 5,
    bitrate: str | None = None,
    codec: str | None = None,
    macro_block_size: int = 16,
    ffmpeg_log_level: str = "warning",
    ffmpeg_timeout: float | None = None,
    input_params: Sequence[str] | None = None,
    output_params: Sequence[str] | None = None,
    audio_path: str | None = None,
    audio_codec: str | None = None,
) -> Generator[None, bytes | None]: ...
