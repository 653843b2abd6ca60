"""The wizard pages: 1 Model, 2 Training setup, 3 Data volume, 4 Time and budget, 5 Hardware, 6 Plans."""
