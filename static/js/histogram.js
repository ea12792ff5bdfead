// Strength categories: histogram of the DWZ distribution (vendored Chart.js; data from json_script).
(function () {
  "use strict";
  const canvas = document.getElementById("dwz-histogram");
  const source = document.getElementById("histogram-data");
  if (!canvas || !source || typeof Chart === "undefined") return;
  const bins = JSON.parse(source.textContent);
  const primary = getComputedStyle(document.documentElement).getPropertyValue("--bs-primary").trim() || "#0d6efd";
  new Chart(canvas, {
    type: "bar",
    data: {
      labels: bins.map((b) => String(b.from)),
      datasets: [{ label: canvas.dataset.label, data: bins.map((b) => b.count), backgroundColor: primary, barPercentage: 1.0, categoryPercentage: 0.95 }],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { display: false }, tooltip: { callbacks: { title: (items) => `${bins[items[0].dataIndex].from}–${bins[items[0].dataIndex].to}` } } },
      scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
    },
  });
})();
