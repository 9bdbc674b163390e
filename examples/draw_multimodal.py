"""Draw the images of examples/multimodal.yaml: python -m examples.draw_multimodal"""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent / "multimodal"


def main() -> None:
    HERE.mkdir(exist_ok=True)
    sign = Image.new("RGB", (420, 120), "white")
    ImageDraw.Draw(sign).text((20, 30), "OPEN 24 HOURS", fill="black", font=ImageFont.load_default(size=40))
    sign.save(HERE / "sign.png")
    chart = Image.new("RGB", (400, 340), "white")
    draw = ImageDraw.Draw(chart)
    draw.text((100, 10), "SALES 2024", fill="black", font=ImageFont.load_default(size=32))
    for i, height in enumerate((80, 150, 200, 120)):
        draw.rectangle((40 + i * 90, 290 - height, 100 + i * 90, 290), fill=(20, 40, 220))
        draw.text((55 + i * 90, 298), f"Q{i + 1}", fill="black", font=ImageFont.load_default(size=24))
        draw.text((50 + i * 90, 262 - height), str(height), fill="black", font=ImageFont.load_default(size=22))
    chart.save(HERE / "chart.png")
    Image.new("RGB", (64, 48), (220, 20, 20)).save(HERE / "red.png")


if __name__ == "__main__":
    main()
