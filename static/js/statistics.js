// Statistics page: bar charts from json_script "stats-data"; each <canvas data-chart="NAME"> draws NAME.
(function () {
  "use strict";
  const source = document.getElementById("stats-data");
  if (!source || typeof Chart === "undefined") return;
  const data = JSON.parse(source.textContent);
  const style = getComputedStyle(document.documentElement);
  const colours = [
    style.getPropertyValue("--bs-primary").trim() || "#0d6efd",
    style.getPropertyValue("--bs-success").trim() || "#198754",
  ];
  document.querySelectorAll("canvas[data-chart]").forEach((canvas) => {
    const chart = data[canvas.dataset.chart];
    if (!chart) return;
    new Chart(canvas, {
      type: "bar",
      data: {
        labels: chart.labels,
        datasets: chart.series.map((s, i) => ({ label: s.label, data: s.data, backgroundColor: colours[i % colours.length] })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { display: chart.series.length > 1, position: "bottom" } },
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
    canvas.dataset.ready = "1";
  });
})();
