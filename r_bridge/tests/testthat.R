library(testthat)
library(ordstat)

test_check("ordstat")
