# Run R code in a second Rscript process with this session's library paths and Python; the
# output lines, with the exit status as attribute "status".
rscript <- function(code) {
  env <- c(paste0("R_LIBS=", paste(.libPaths(), collapse = .Platform$path.sep)))
  for (v in c("ORDSTAT_PYTHON", "PYTHONPATH", "RETICULATE_PYTHON")) {
    if (nzchar(Sys.getenv(v))) env <- c(env, paste0(v, "=", Sys.getenv(v)))
  }
  script <- tempfile(fileext = ".R")
  writeLines(code, script)
  out <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), script, env = env,
                                  stdout = TRUE, stderr = TRUE))
  structure(out, status = attr(out, "status"))
}
