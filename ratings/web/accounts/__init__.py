"""Login, logout, password change and reset, and the lockout page of django-axes."""
