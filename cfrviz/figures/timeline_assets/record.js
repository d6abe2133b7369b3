// The view painted on a canvas: a PNG of it, and a WebM of it stepping through the frames.
import { el, thousands, paperOf } from "./util.js";
import { figure, fileName, onSlide, save } from "./figure.js";

// A canvas the browser cannot back (larger than its canvas memory allows: Safari caps it) has no 2D
// context and makes no PNG: then no file is saved, and the user reads this beside the buttons.
const NO_CANVAS = "This browser could not paint the view at this size (no canvas), so no file was saved.";

// Paint a figure (made by `figure`, so only the shapes it holds) on a canvas context.
/** @param {CanvasRenderingContext2D} ctx @param {any} node */
function paint(ctx, node) {
  const tag = node.tagName;
  if (tag === "title") return;
  ctx.save();
  const st = node.style;
  /** @param {string} p @returns {string} */
  const css = (p) => st ? st.getPropertyValue(p) : "";
  /** @param {string} p @param {number} d */
  const num = (p, d) => { const v = parseFloat(css(p)); return Number.isFinite(v) ? v : d; };
  /** @param {string} a */
  const attr = (a) => parseFloat(node.getAttribute(a)) || 0;
  const move = (node.getAttribute("transform") || "").match(/translate\(([-\d.]+)[ ,]+([-\d.]+)\)/);
  if (move) ctx.translate(Number(move[1]), Number(move[2]));
  const grow = (node.getAttribute("transform") || "").match(/scale\(([-\d.]+)\)/);    // a slide's fit (figure.js onSlide)
  if (grow) ctx.scale(Number(grow[1]), Number(grow[1]));
  ctx.globalAlpha *= num("opacity", 1);
  const fill = css("fill") || node.getAttribute("fill") || (tag === "text" ? "#000" : "none");
  const stroke = css("stroke") || node.getAttribute("stroke") || "none";
  const strokeWidth = num("stroke-width", parseFloat(node.getAttribute("stroke-width")) || 1);
  const dash = css("stroke-dasharray");
  /** @param {() => void} draw */
  const doFill = (draw) => {
    if (fill === "none" || !fill) return;
    ctx.save(); ctx.globalAlpha *= num("fill-opacity", 1); ctx.fillStyle = fill; draw(); ctx.restore();
  };
  /** @param {() => void} draw */
  const doStroke = (draw) => {
    if (stroke === "none" || !stroke || strokeWidth <= 0) return;
    ctx.save();
    ctx.globalAlpha *= num("stroke-opacity", 1);
    ctx.strokeStyle = stroke; ctx.lineWidth = strokeWidth;
    ctx.lineCap = css("stroke-linecap") || node.getAttribute("stroke-linecap") || "butt";
    ctx.lineJoin = /** @type {CanvasLineJoin} */ (css("stroke-linejoin") || "miter");   // a computed stroke-linejoin
    ctx.setLineDash(dash && dash !== "none" ? dash.split(/[ ,]+/).map(parseFloat).filter(Number.isFinite) : []);
    draw(); ctx.restore();
  };
  if (tag === "g" || tag === "svg") {
    for (const child of node.children) paint(ctx, child);
  } else if (tag === "rect") {
    const path = new Path2D();
    path.roundRect(attr("x"), attr("y"), attr("width"), attr("height"), attr("rx"));
    doFill(() => ctx.fill(path)); doStroke(() => ctx.stroke(path));
  } else if (tag === "line") {
    doStroke(() => { ctx.beginPath(); ctx.moveTo(attr("x1"), attr("y1")); ctx.lineTo(attr("x2"), attr("y2")); ctx.stroke(); });
  } else if (tag === "path") {
    const path = new Path2D(node.getAttribute("d"));
    doFill(() => ctx.fill(path)); doStroke(() => ctx.stroke(path));
  } else if (tag === "polyline") {
    /** @type {number[][]} */
    const pts = (node.getAttribute("points") || "").trim().split(/\s+/).map((/** @type {string} */ p) => p.split(",").map(Number));
    doStroke(() => { ctx.beginPath(); pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y))); ctx.stroke(); });
  } else if (tag === "text") {
    ctx.font = `${css("font-weight") || "400"} ${css("font-size") || "14px"} ${css("font-family") || "sans-serif"}`;
    const anchor = css("text-anchor") || node.getAttribute("text-anchor") || "start";
    ctx.textAlign = anchor === "middle" ? "center" : anchor === "end" ? "right" : "left";
    ctx.textBaseline = "alphabetic";
    const x = attr("x"), y = attr("y"), text = node.textContent;
    const most = node.hasAttribute("textLength") ? attr("textLength") + 1 : undefined;
    const halo = () => doStroke(() => ctx.strokeText(text, x, y, most));
    if ((css("paint-order") || "").startsWith("stroke")) { halo(); doFill(() => ctx.fillText(text, x, y, most)); }
    else { doFill(() => ctx.fillText(text, x, y, most)); halo(); }
  }
  ctx.restore();
}

/** @param {{ width: number, height: number }} fig @param {number} scale */
function canvasOf(fig, scale) {
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(fig.width * scale);
  canvas.height = Math.round(fig.height * scale);
  return canvas;
}

/** @param {CanvasRenderingContext2D} ctx @param {{ svg: any, width: number, height: number }} fig @param {number} scale */
function paintFigure(ctx, fig, scale) {
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  ctx.clearRect(0, 0, fig.width, fig.height);
  paint(ctx, fig.svg);
}

/** The view as a PNG at 2×: the figure's own size, or a 16:9 slide (1,920 × 1,080, so 3,840 × 2,160 pixels).
 * @param {any} tl a Timeline (store.js) @param {boolean} [slide] */
export function downloadPNG(tl, slide = false) {
  const fig = slide ? onSlide(figure(tl), paperOf(tl.root)) : figure(tl);
  const canvas = canvasOf(fig, 2);   // 2x pixel ratio: sharp on slides and retina screens
  const ctx = canvas.getContext("2d");
  if (!ctx) { exportNote(tl, `${NO_CANVAS} The SVG download needs none.`); return; }
  paintFigure(ctx, fig, 2);
  canvas.toBlob((blob) => {
    if (!blob) { exportNote(tl, `${NO_CANVAS} The SVG download needs none.`); return; }
    exportNote(tl, "");
    save(blob, fileName(tl, "png", slide ? "-1080p" : ""));
  }, "image/png");
}

// A line beside the download buttons, made the first time something must be said there ("" clears it).
/** @param {any} tl @param {string} text */
function exportNote(tl, text) {
  const box = tl.root.querySelector(".tl-export");
  const note = box.querySelector(".tl-export-note");
  if (note) note.textContent = text;
  else if (text) el("span", { class: "tl-note tl-export-note", role: "status", "data-testid": "timeline-export-status" }, box, text);
}

// A WebM of the view stepping through frames first..last: each frame is painted on a canvas and
// handed to MediaRecorder. At least 24 video frames: short ranges hold each frame longer.
/** @param {any} tl @param {number} first @param {number} last @param {any} button @param {boolean} [slide] */
export async function downloadAnimation(tl, first, last, button, slide = false) {
  // A 1080p slide (the figure fitted into 1,920 × 1,080) or the figure's own size.
  const shot = () => slide ? onSlide(figure(tl), paperOf(tl.root)) : figure(tl);
  if (tl.recording) return;
  const status = tl.bar.animStatus;
  if (typeof MediaRecorder === "undefined" || !HTMLCanvasElement.prototype.captureStream) {
    status.textContent = "This browser cannot record video (no MediaRecorder).";
    return;
  }
  const steps = [];
  const count = Math.min(120, last - first + 1);
  for (let i = 0; i < count; i++) steps.push(count === 1 ? first : Math.round(first + (i * (last - first)) / (count - 1)));
  const picked = [...new Set(steps)];
  const hold = Math.max(1, Math.ceil(24 / picked.length));
  const fps = 12;
  tl.pause(false);
  const keep = tl.f;
  tl.f = picked[0]; tl.draw();
  const fig0 = shot();
  const canvas = canvasOf(fig0, 1);
  const ctx = canvas.getContext("2d");
  if (!ctx) { tl.f = keep; tl.draw(); status.textContent = NO_CANVAS; return; }
  paintFigure(ctx, fig0, 1);
  const type = ["video/webm;codecs=vp9", "video/webm;codecs=vp8", "video/webm"].find((t) => MediaRecorder.isTypeSupported(t));
  const stream = canvas.captureStream(0);
  const track = /** @type {CanvasCaptureMediaStreamTrack} */ (stream.getVideoTracks()[0]);
  const recorder = new MediaRecorder(stream, type ? { mimeType: type } : {});
  /** @type {Blob[]} */
  const chunks = [];
  recorder.ondataavailable = (e) => { if (e.data.size) chunks.push(e.data); };
  const done = new Promise((resolve) => { recorder.onstop = resolve; });
  tl.recording = true;
  button.disabled = true;
  let made = 0;
  recorder.start();
  try {
    for (const f of picked) {
      tl.f = f; tl.draw();
      const fig = shot();
      for (let h = 0; h < hold; h++) {
        paintFigure(ctx, { ...fig, width: fig0.width, height: fig0.height }, 1);
        track.requestFrame();
        made += 1;
        status.textContent = `Recording frame ${made} of ${picked.length * hold}…`;
        await new Promise((resolve) => setTimeout(resolve, 1000 / fps));
      }
    }
  } finally {
    recorder.stop();
    await done;
    track.stop();
    tl.recording = false;
    button.disabled = false;
    tl.f = keep; tl.draw();
  }
  status.textContent = `${made} frames, iterations ${thousands(tl.frames[first])} to ${thousands(tl.frames[last])}.`;
  status.dataset.frames = String(made);
  const name = `cfrviz-${tl.b.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}` +
    `-${tl.spec.unit ?? "t"}${tl.frames[first]}-${tl.frames[last]}${slide ? "-1080p" : ""}.webm`;
  save(new Blob(chunks, { type: "video/webm" }), name);
}
