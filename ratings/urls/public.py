"""URLs: public pages (German, stable paths; no language prefix)."""

from django.urls import path

from ratings.views import calculator

urlpatterns = [
    path("rechner/", calculator.calculator, name="calculator"),
    path("rechner/vorschau/", calculator.calculator_preview, name="calculator-preview"),
]
