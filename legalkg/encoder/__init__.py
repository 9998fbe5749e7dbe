"""Training of the static token-table encoder (``legalkg train-encoder``): corpus, distillation, fine-tuning."""
