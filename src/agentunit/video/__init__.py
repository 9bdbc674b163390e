"""Video: frame sampling (OpenCV), no-reference frame quality, temporal consistency, and the video metrics.

    from agentunit.video import decode_video, FramePlan, frame_measures, transitions
    from agentunit.video.metrics import VideoVisualQualityMetric, VideoResponseRelevanceMetric

The metrics register themselves from ``agentunit.video.metrics`` (loaded by the catalog). See docs/video.md.
"""

from agentunit.video.decode import Frame, FramePlan, Video, VideoInfo, VideoInputError, decode_video, decoder_status
from agentunit.video.frames import frame_media, videos_of
from agentunit.video.quality import blur_effect, frame_measures, frame_scores
from agentunit.video.temporal import transition_scores, transitions

__all__ = ["Frame", "FramePlan", "Video", "VideoInfo", "VideoInputError", "blur_effect", "decode_video",
           "decoder_status", "frame_measures", "frame_media", "frame_scores", "transition_scores", "transitions",
           "videos_of"]
