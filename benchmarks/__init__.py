"""Benchmarks: our code against peers (scikit-learn, rpart, mclust) timed in the same run."""
