# The package's help page (?ordstat).

#' ordstat: Classification into Ordered Categories
#'
#' @description
#' R interface to the Python package \code{ordstat} for classification into ordered categories
#' and for generative discriminant models, reached through \pkg{reticulate}.
#' @section Models:
#' \itemize{
#'   \item \code{\link{ordinal_tree}}: an rpart-style classification tree grown with an ordinal
#'     split criterion (Piccarreta 2008) and pruned by cost-complexity; it is an \code{rpart}
#'     object too (\code{printcp}, \code{plotcp}, \code{text}), \code{prune} prunes it
#'     everywhere (\code{\link{prune.ordinal_tree}}) and \code{\link{ordinal_xpred}} gives
#'     the cross-validated predictions of rpart's \code{xpred.rpart}.
#'   \item \code{\link{ordinal_split}}: the same criteria as a user splitting method for
#'     \code{rpart::rpart}; \code{\link{split_goodness}} evaluates them on class counts.
#'   \item \code{\link{edda}}: eigenvalue decomposition discriminant analysis with mclust's 14
#'     covariance models, chosen by leave-one-out error or BIC (Bensmail and Celeux 1996).
#'   \item \code{\link{discrete_da}}: full multinomial, first-order independence and kernel
#'     models for discrete predictors (Brito, Celeux and Sousa Ferreira 2006).
#'   \item \code{\link{ordinal_metrics}}: misclassification, mean absolute and squared rank
#'     distances, Goodman-Kruskal gamma.
#' }
#' @section R conventions:
#' Models take \code{formula}, \code{data} (optional), \code{weights}, \code{subset} and
#' \code{na.action} (default \code{na.omit}) as \code{lm} does, and \code{predict(fit, newdata)}
#' gives one prediction per row of \code{newdata} (\code{NA} where a model cannot predict; its
#' own \code{na.action}, as \code{predict.lm}'s, see \code{\link{ordstat_model}}); in fitting,
#' \code{na.action = na.pass} keeps rows with missing predictors for the models that handle
#' them (\code{\link{ordinal_tree}}, \code{\link{ordinal_bagging}}, \code{\link{ordinal_forest}},
#' \code{\link{ordinal_boosting}}), the others refuse them with an error. Case weights are
#' refused by name where the method takes
#' none, and unknown arguments are errors naming them. Parameter values are checked once, by the
#' Python classes; their errors come back as R errors that start with the R function and use the
#' R argument names (e.g. \code{ordinal_tree(): The 'minsplit' parameter ...}). Without
#' \code{random_state}, seeds are drawn from R's random numbers, so \code{set.seed()} makes fits
#' reproducible. Fitted models keep a serialised copy of the Python model and survive
#' \code{saveRDS}/\code{readRDS} and \code{save}/\code{load} into a new session (see
#' \emph{Saving models}: read only files you trust). The generative models have \code{logLik},
#' \code{AIC}, \code{BIC} and
#' \code{nobs} methods (\code{\link{logLik.ordstat_generative}}); every model has
#' \code{model.frame}, \code{formula}, \code{terms}, \code{update}, \code{nobs},
#' \code{fitted} and \code{residuals} (\code{\link{ordstat_model}}).
#' @section Saving models:
#' A fitted model keeps its Python model pickled in a raw vector, so that it survives
#' \code{saveRDS}/\code{readRDS} and \code{save}/\code{load}; in a new session it is unpickled
#' on its first use (\code{predict}, \code{summary}, ...), which needs the same versions of the
#' Python packages as when it was saved. Unpickling runs code: a model file made by someone
#' else can run any command with your permissions when the model is first used, and R's own
#' \code{.rds} and \code{.RData} formats are not safe against a malicious file either. Read
#' only model files you made yourself or got from a source you trust.
#' @section Python:
#' The Python side is found as described in \code{\link{ordstat_available}}:
#' \code{options(ordstat.python = )}, the environment variable \code{ORDSTAT_PYTHON}, the
#' environment variable \code{RETICULATE_PYTHON}, the Python recorded when the package was
#' installed, a \code{.venv-r} of the repository, or the environment made by
#' \code{\link{install_ordstat}}, first found. Loading the package starts no Python; a Python that
#' reticulate started before \code{library(ordstat)} is kept (one per session), and the first call
#' that needs the Python package says which Python runs when it has no ordstat. The Python package must have the version
#' of this R package (a warning says so once per session otherwise). \code{citation("ordstat")}
#' lists the papers behind the methods.
#' @section Environment variables:
#' \itemize{
#'   \item \code{ORDSTAT_PYTHON}: the Python to use (it must have the ordstat Python package),
#'     unless \code{options(ordstat.python = )} is set. Also read when the package is installed
#'     (recorded for later sessions) and when it is built.
#'   \item \code{RETICULATE_PYTHON}: reticulate's own setting, used when neither
#'     \code{options(ordstat.python = )} nor \code{ORDSTAT_PYTHON} is set (before the Python
#'     recorded at installation and the virtual environment of \code{\link{install_ordstat}}).
#'   \item \code{ORDSTAT_REQUIRE_PYTHON}: \code{true} makes a missing Python side an error in
#'     the package's tests and vignette instead of a skip (for development and continuous
#'     integration); \code{false} lets \code{R CMD build} ship the vignette without output
#'     when no Python is found. Unset, building the package (\code{R CMD build}, which runs the
#'     vignette) fails without Python, while \code{R CMD check} of a built tarball skips the code
#'     that needs Python (tests, examples and the vignette's re-building), as on CRAN.
#' }
#' @references
#' Piccarreta, R. (2008). Classification trees for ordinal variables. \emph{Computational
#' Statistics}, 23, 407-427.
#'
#' Archer, K. J. and Mas, V. R. (2009). Ordinal response prediction using bootstrap aggregation,
#' with application to a high-throughput methylation data set. \emph{Statistics in Medicine}, 28,
#' 3597-3610.
#'
#' Bensmail, H. and Celeux, G. (1996). Regularized Gaussian discriminant analysis through
#' eigenvalue decomposition. \emph{JASA}, 91, 1743-1748.
#'
#' Brito, I., Celeux, G. and Sousa Ferreira, A. (2006). Combining methods in supervised
#' classification: a comparative study on discrete and continuous problems. \emph{REVSTAT}, 4,
#' 201-225.
#'
#' Tutz, G. and Hechenbichler, K. (2003). Aggregating classifiers with ordinal response structure.
#' @keywords package
"_PACKAGE"
