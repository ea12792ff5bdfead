// Player card: DWZ and Leistung over time (vendored Chart.js; data from json_script "dwz-data").
(function () {
  "use strict";
  const canvas = document.getElementById("dwz-chart");
  const source = document.getElementById("dwz-data");
  if (!canvas || !source || typeof Chart === "undefined") return;
  const points = JSON.parse(source.textContent);
  const lang = document.documentElement.lang || "de";
  // German 07.06.2026; English 7 Jun 2026 (never the ambiguous 06/07/2026).
  const dateFormat = lang.startsWith("de")
    ? new Intl.DateTimeFormat("de-DE", { day: "2-digit", month: "2-digit", year: "numeric" })
    : new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });
  const labels = points.map((p) => (p.date ? dateFormat.format(new Date(p.date + "T12:00:00")) : canvas.dataset.labelStart));
  const style = getComputedStyle(document.documentElement);
  const primary = style.getPropertyValue("--bs-primary").trim() || "#0d6efd";
  const secondary = style.getPropertyValue("--bs-warning").trim() || "#ffc107";
  // A single evaluation: a visible point in the middle with its date below and a sensible y range.
  const single = points.length === 1;
  const values = points.flatMap((p) => [p.dwz, p.performance]).filter((v) => v !== null && v !== undefined);
  const yRange = single ? { suggestedMin: Math.min(...values) - 100, suggestedMax: Math.max(...values) + 100 } : {};
  const chart = new Chart(canvas, {
    type: "line",
    data: {
      labels: labels,
      datasets: [
        {
          label: canvas.dataset.labelDwz,
          data: points.map((p) => p.dwz),
          borderColor: primary,
          backgroundColor: primary,
          tension: 0.15,
          pointRadius: single ? 6 : 3,
        },
        {
          label: canvas.dataset.labelPerformance,
          data: points.map((p) => p.performance),
          borderColor: secondary,
          backgroundColor: secondary,
          showLine: false,
          pointRadius: 4,
          pointStyle: "rectRot",
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: "index", intersect: false },
      plugins: {
        legend: { position: "bottom" },
        tooltip: {
          callbacks: {
            title: (items) => `${labels[items[0].dataIndex]} · ${points[items[0].dataIndex].label}`,
            label: (item) => `${item.dataset.label}: ${item.raw}`,
          },
        },
      },
      scales: {
        x: { offset: single, ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 6 } },
        // Ratings are printed without a thousands separator (1850, not 1.850).
        y: { ...yRange, ticks: { callback: (value) => String(value) } },
      },
    },
  });
  canvas.dataset.ready = chart ? "1" : "0";
})();
